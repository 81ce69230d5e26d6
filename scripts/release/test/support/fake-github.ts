import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { expect } from "vitest";
import { GitHub } from "../../github.ts";
import { BareRepo, HttpError } from "./bare-repo.ts";

/**
 * A local stand-in for the GitHub endpoints the release scripts call, backed by a real bare
 * repository (bare-repo.ts): refs, merges, commits and tags happen in it with git, so a clone sees
 * what GitHub would have made. It listens on 127.0.0.1 only; nothing reaches the network.
 */
export interface FakePull {
  number: number;
  html_url: string;
  state: "open" | "closed";
  title: string;
  body: string;
  head: { ref: string };
  base: { ref: string };
}

/** Matches an open pull request of head into base with that title (in `expect(…).toEqual`). */
export const anOpenPull = (head: string, base: string, title: string) =>
  expect.objectContaining({ state: "open", head: { ref: head }, base: { ref: base }, title });

export interface FakeGitHub {
  github: GitHub;
  /** Every request in order; a dry run must leave only GETs here. */
  requests: { method: string; path: string; body: unknown }[];
  pulls: FakePull[];
  statuses: { sha: string; state: string; context: string; description: string }[];
  releases: { tag_name: string; name: string; body: string }[];
  commits: { branch: string; oid: string; headline: string }[];
  openPull(head: string, base: string): FakePull;
  close(): Promise<void>;
}

type Body = Record<string, unknown>;
type Route = [
  method: string,
  path: RegExp,
  handle: (m: RegExpMatchArray, body: Body, url: URL) => Promise<[number, unknown]>,
];

export async function startFakeGitHub(bare: string, repository = "acme/edge"): Promise<FakeGitHub> {
  const repo = new BareRepo(bare);
  const state: Pick<FakeGitHub, "requests" | "pulls" | "statuses" | "releases" | "commits"> = {
    requests: [],
    pulls: [],
    statuses: [],
    releases: [],
    commits: [],
  };
  const openPull = (
    head: string,
    base: string,
    title = `${head} → ${base}`,
    body = "",
  ): FakePull => {
    const number = state.pulls.length + 1;
    const html_url = `https://github.test/${repository}/pull/${number}`;
    const pull: FakePull = {
      number,
      html_url,
      state: "open",
      title,
      body,
      head: { ref: head },
      base: { ref: base },
    };
    state.pulls.push(pull);
    return pull;
  };

  const routes: Route[] = [
    [
      "GET",
      /^\/pulls$/,
      async (_m, _b, url) => [
        200,
        state.pulls.filter(
          (p) =>
            p.state === url.searchParams.get("state") &&
            p.base.ref === url.searchParams.get("base"),
        ),
      ],
    ],
    [
      "POST",
      /^\/pulls$/,
      async (_m, b) => {
        const head = String(b.head).replace(/^[^:]+:/, "");
        if (!(await repo.resolve(`refs/heads/${head}`)))
          throw new HttpError(422, `head ${head} does not exist`);
        return [201, openPull(head, String(b.base), String(b.title), String(b.body))];
      },
    ],
    [
      "GET",
      /^\/git\/ref\/(.+)$/,
      async (m) => {
        const sha = await repo.resolve(`refs/${m[1]}`);
        if (!sha) throw new HttpError(404, "Not Found");
        return [200, { ref: `refs/${m[1]}`, object: { sha, type: await repo.typeOf(sha) } }];
      },
    ],
    [
      "POST",
      /^\/git\/refs$/,
      async (_m, b) => [201, await repo.createRef(String(b.ref), String(b.sha)).then(() => b)],
    ],
    [
      "DELETE",
      /^\/git\/refs\/(.+)$/,
      async (m) => [204, await repo.deleteRef(`refs/${m[1]}`).then(() => null)],
    ],
    [
      "POST",
      /^\/merges$/,
      async (_m, b) => repo.merge(String(b.base), String(b.head), String(b.commit_message)),
    ],
    [
      "POST",
      /^\/statuses\/([0-9a-f]{40})$/,
      async (m, b) => {
        if (!(await repo.has(`${m[1]}^{commit}`)))
          throw new HttpError(422, "No commit found for SHA");
        state.statuses.push({
          sha: m[1] ?? "",
          state: String(b.state),
          context: String(b.context),
          description: String(b.description),
        });
        return [201, {}];
      },
    ],
    [
      "POST",
      /^\/git\/tags$/,
      async (_m, b) => [
        201,
        {
          sha: await repo.makeTag(
            b as { tag: string; message: string; object: string; type: string },
          ),
        },
      ],
    ],
    [
      "POST",
      /^\/releases$/,
      async (_m, b) => {
        // Stricter than GitHub, which would make a lightweight tag: the scripts must tag first.
        if (!(await repo.resolve(`refs/tags/${b.tag_name}`)))
          throw new HttpError(422, "tag does not exist");
        if (state.releases.some((r) => r.tag_name === b.tag_name))
          throw new HttpError(422, "already_exists");
        state.releases.push({
          tag_name: String(b.tag_name),
          name: String(b.name),
          body: String(b.body),
        });
        return [201, { html_url: `https://github.test/${repository}/releases/tag/${b.tag_name}` }];
      },
    ],
  ];

  /** The one GraphQL mutation the scripts send; GraphQL reports errors in a 200 body. */
  async function graphql(body: Body): Promise<unknown> {
    if (!String(body.query).includes("createCommitOnBranch"))
      throw new HttpError(400, "only createCommitOnBranch is stood in");
    type Input = {
      branch: { branchName: string };
      expectedHeadOid: string;
      message: { headline: string; body: string };
      fileChanges: {
        additions: { path: string; contents: string }[];
        deletions: { path: string }[];
      };
    };
    const {
      branch: ref,
      expectedHeadOid,
      message,
      fileChanges,
    } = (body.variables as { input: Input }).input;
    const branch = ref.branchName;
    try {
      const oid = await repo.commitOnBranch({
        branch,
        expectedHeadOid,
        ...message,
        additions: fileChanges.additions,
        deletions: fileChanges.deletions.map((file) => file.path),
      });
      state.commits.push({ branch, oid, headline: message.headline });
      return {
        data: {
          createCommitOnBranch: { commit: { oid, url: `https://github.test/commit/${oid}` } },
        },
      };
    } catch (err) {
      return { errors: [{ message: (err as Error).message }] };
    }
  }

  const prefix = `/repos/${repository}`;
  async function handle(req: IncomingMessage, body: Body): Promise<[number, unknown]> {
    const url = new URL(req.url ?? "/", "http://localhost");
    if (url.pathname === "/graphql") {
      state.requests.push({ method: "POST", path: "/graphql", body });
      return [200, await graphql(body)];
    }
    if (!url.pathname.startsWith(prefix)) throw new HttpError(404, "Not Found");
    const path = url.pathname.slice(prefix.length);
    state.requests.push({ method: req.method ?? "", path, body });
    for (const [method, pattern, handler] of routes) {
      const match = method === req.method ? path.match(pattern) : null;
      if (match) return handler(match, body, url);
    }
    throw new HttpError(404, `not stood in: ${req.method} ${path}`);
  }

  const server = createServer(async (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = (chunks.length ? JSON.parse(Buffer.concat(chunks).toString("utf8")) : {}) as Body;
    const [status, data] = await handle(req, body).catch((err: Error): [number, unknown] => [
      err instanceof HttpError ? err.status : 500,
      { message: err.message },
    ]);
    res.writeHead(status, { "content-type": "application/json" });
    res.end(status === 204 || data === null ? undefined : JSON.stringify(data));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    ...state,
    github: new GitHub({
      repository,
      token: "test-token",
      apiUrl: base,
      graphqlUrl: `${base}/graphql`,
    }),
    openPull: (head, baseRef) => openPull(head, baseRef),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
