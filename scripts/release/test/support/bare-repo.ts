import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { run } from "../../exec.ts";
import type { CommitOnBranchInput } from "../../github.ts";

/** What GitHub does to its copy of the repository, done with git on a local bare repository. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

const SERVER_IDENTITY = {
  GIT_AUTHOR_NAME: "GitHub",
  GIT_AUTHOR_EMAIL: "noreply@github.com",
  GIT_COMMITTER_NAME: "GitHub",
  GIT_COMMITTER_EMAIL: "noreply@github.com",
};

export class BareRepo {
  constructor(readonly path: string) {}

  async git(args: string[], opts: { input?: string; env?: Record<string, string> } = {}) {
    const result = await run("git", ["--git-dir", this.path, ...args], {
      cwd: this.path,
      env: { ...process.env, ...SERVER_IDENTITY, ...opts.env },
      ...(opts.input === undefined ? {} : { input: opts.input }),
    });
    return { ok: result.code === 0, out: result.stdout.trim(), err: result.stderr.trim() };
  }

  async resolve(ref: string): Promise<string | null> {
    const r = await this.git(["rev-parse", "--verify", "--quiet", ref]);
    return r.ok ? r.out : null;
  }

  async has(object: string): Promise<boolean> {
    return (await this.git(["cat-file", "-e", object])).ok;
  }

  async typeOf(sha: string): Promise<string> {
    return (await this.git(["cat-file", "-t", sha])).out;
  }

  async createRef(ref: string, sha: string): Promise<void> {
    if (await this.resolve(ref)) throw new HttpError(422, "Reference already exists");
    if (!(await this.has(sha))) throw new HttpError(422, "Object does not exist");
    await this.git(["update-ref", ref, sha]);
  }

  async deleteRef(ref: string): Promise<void> {
    if (!(await this.resolve(ref))) throw new HttpError(422, "Reference does not exist");
    await this.git(["update-ref", "-d", ref]);
  }

  /** POST /merges: 201 with the merge commit, 204 when head is already in base, 409 on conflict. */
  async merge(base: string, head: string, message: string): Promise<[number, unknown]> {
    const baseSha = await this.resolve(`refs/heads/${base}`);
    const headSha = await this.resolve(`refs/heads/${head}`);
    if (!baseSha || !headSha) throw new HttpError(404, "Base or head does not exist");
    if ((await this.git(["merge-base", "--is-ancestor", headSha, baseSha])).ok) return [204, null];
    const tree = await this.git(["merge-tree", "--write-tree", baseSha, headSha]);
    if (!tree.ok) throw new HttpError(409, "Merge conflict");
    const treeSha = tree.out.split("\n")[0] ?? "";
    const commit = await this.git([
      "commit-tree",
      treeSha,
      "-p",
      baseSha,
      "-p",
      headSha,
      "-m",
      message,
    ]);
    await this.git(["update-ref", `refs/heads/${base}`, commit.out]);
    return [201, { sha: commit.out }];
  }

  /** An annotated tag object, as POST /git/tags makes it (the ref is a separate call). */
  async makeTag(input: {
    tag: string;
    message: string;
    object: string;
    type: string;
  }): Promise<string> {
    const tagger = `GitHub <noreply@github.com> ${Math.floor(Date.now() / 1000)} +0000`;
    const text = `object ${input.object}\ntype ${input.type}\ntag ${input.tag}\ntagger ${tagger}\n\n${input.message}`;
    const made = await this.git(["mktag"], { input: text });
    if (!made.ok) throw new HttpError(422, `could not make the tag object: ${made.err}`);
    return made.out;
  }

  /** createCommitOnBranch: one commit of additions and deletions on top of the branch's head. */
  async commitOnBranch(input: CommitOnBranchInput): Promise<string> {
    const head = await this.resolve(`refs/heads/${input.branch}`);
    if (!head) throw new HttpError(404, `branch ${input.branch} not found`);
    if (head !== input.expectedHeadOid) {
      throw new HttpError(
        409,
        `Expected branch to point to "${input.expectedHeadOid}" but it did not`,
      );
    }
    const dir = await mkdtemp(join(tmpdir(), "fake-gh-index-"));
    const env = { GIT_INDEX_FILE: join(dir, "index") };
    try {
      await this.git(["read-tree", head], { env });
      // --index-info needs no work tree (a bare repository has none): mode 0 removes an entry.
      const entries: string[] = [];
      for (const file of input.additions) {
        const content = Buffer.from(file.contents, "base64").toString("utf8");
        const blob = await this.git(["hash-object", "-w", "--stdin"], { input: content });
        entries.push(`100644 ${blob.out}\t${file.path}`);
      }
      for (const path of input.deletions) entries.push(`0 ${"0".repeat(40)}\t${path}`);
      await this.git(["update-index", "--index-info"], { env, input: `${entries.join("\n")}\n` });
      const tree = await this.git(["write-tree"], { env });
      if (!tree.ok) throw new HttpError(500, tree.err);
      const commit = await this.git([
        "commit-tree",
        tree.out,
        "-p",
        head,
        "-m",
        input.headline,
        "-m",
        input.body,
      ]);
      await this.git(["update-ref", `refs/heads/${input.branch}`, commit.out, head]);
      return commit.out;
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }
}
