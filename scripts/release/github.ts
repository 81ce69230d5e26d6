import { ReleaseError } from "./errors.ts";

/** The REST and GraphQL calls the release scripts make, and nothing else. */
export interface GitHubOptions {
  /** "owner/name" (GITHUB_REPOSITORY). */
  repository: string;
  token: string;
  /** GITHUB_API_URL; a local stand-in in tests. */
  apiUrl: string;
  /** GITHUB_GRAPHQL_URL. */
  graphqlUrl: string;
}

export interface PullRequest {
  number: number;
  html_url: string;
  head: { ref: string };
  base: { ref: string };
}

/**
 * One commit of createCommitOnBranch, flattened: the message's headline and body, additions with
 * base64 contents, deletions by path.
 */
export interface CommitOnBranchInput {
  branch: string;
  expectedHeadOid: string;
  headline: string;
  body: string;
  additions: { path: string; contents: string }[];
  deletions: string[];
}

export class GitHubApiError extends ReleaseError {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export class GitHub {
  constructor(private readonly options: GitHubOptions) {}

  get repository(): string {
    return this.options.repository;
  }

  private async request<T>(
    method: string,
    path: string,
    body?: unknown,
  ): Promise<{ status: number; data: T }> {
    const response = await fetch(`${this.options.apiUrl}/repos/${this.options.repository}${path}`, {
      method,
      headers: {
        accept: "application/vnd.github+json",
        authorization: `Bearer ${this.options.token}`,
        "x-github-api-version": "2022-11-28",
        ...(body === undefined ? {} : { "content-type": "application/json" }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    if (!response.ok) {
      const detail = messageOf(text);
      throw new GitHubApiError(
        response.status,
        `GitHub ${method} ${path}: ${response.status} ${detail}`,
      );
    }
    return { status: response.status, data: (text ? JSON.parse(text) : null) as T };
  }

  /** Open pull requests into a branch (a release never has more than a page of them). */
  async openPullsInto(base: string): Promise<PullRequest[]> {
    const query = `state=open&base=${encodeURIComponent(base)}&per_page=100`;
    return (await this.request<PullRequest[]>("GET", `/pulls?${query}`)).data;
  }

  async createPull(input: {
    title: string;
    head: string;
    base: string;
    body: string;
  }): Promise<PullRequest> {
    return (await this.request<PullRequest>("POST", "/pulls", input)).data;
  }

  /** The object a ref points at ("heads/x", "tags/v1.2.3"), or null when there is no such ref. */
  async getRef(ref: string): Promise<{ sha: string; type: string } | null> {
    try {
      const { data } = await this.request<{ object: { sha: string; type: string } }>(
        "GET",
        `/git/ref/${ref}`,
      );
      return data.object;
    } catch (err) {
      if (err instanceof GitHubApiError && err.status === 404) return null;
      throw err;
    }
  }

  async createRef(ref: string, sha: string): Promise<void> {
    await this.request("POST", "/git/refs", { ref: `refs/${ref}`, sha });
  }

  async deleteRef(ref: string): Promise<void> {
    await this.request("DELETE", `/git/refs/${ref}`);
  }

  /** Server-side merge of head into base: the merge commit's sha, or null when already merged. */
  async merge(base: string, head: string, message: string): Promise<string | null> {
    const { status, data } = await this.request<{ sha: string } | null>("POST", "/merges", {
      base,
      head,
      commit_message: message,
    });
    return status === 204 || !data ? null : data.sha;
  }

  /**
   * One commit on a branch through GraphQL's createCommitOnBranch: GitHub signs it (shown as
   * Verified) because GitHub itself creates it. expectedHeadOid makes it fail rather than race.
   */
  async commitOnBranch(input: CommitOnBranchInput): Promise<string> {
    const query = `mutation($input: CreateCommitOnBranchInput!) {
  createCommitOnBranch(input: $input) { commit { oid url } }
}`;
    const variables = {
      input: {
        branch: { repositoryNameWithOwner: this.options.repository, branchName: input.branch },
        expectedHeadOid: input.expectedHeadOid,
        message: { headline: input.headline, body: input.body },
        fileChanges: {
          additions: input.additions,
          deletions: input.deletions.map((path) => ({ path })),
        },
      },
    };
    const response = await fetch(this.options.graphqlUrl, {
      method: "POST",
      headers: {
        authorization: `Bearer ${this.options.token}`,
        "content-type": "application/json",
      },
      body: JSON.stringify({ query, variables }),
    });
    const result = (await response.json()) as {
      data?: { createCommitOnBranch?: { commit?: { oid: string } } };
      errors?: { message: string }[];
    };
    const oid = result.data?.createCommitOnBranch?.commit?.oid;
    if (!response.ok || result.errors?.length || !oid) {
      const why = result.errors?.map((e) => e.message).join("; ") ?? `HTTP ${response.status}`;
      throw new GitHubApiError(
        response.status,
        `GitHub createCommitOnBranch on ${input.branch}: ${why}`,
      );
    }
    return oid;
  }

  async createStatus(
    sha: string,
    status: {
      state: "success" | "failure" | "pending";
      context: string;
      description: string;
      target_url?: string;
    },
  ): Promise<void> {
    await this.request("POST", `/statuses/${sha}`, status);
  }

  /** An annotated tag object (the ref is made separately, as Git's data API requires). */
  async createTagObject(tag: string, message: string, sha: string): Promise<string> {
    return (
      await this.request<{ sha: string }>("POST", "/git/tags", {
        tag,
        message,
        object: sha,
        type: "commit",
      })
    ).data.sha;
  }

  async createRelease(input: {
    tag_name: string;
    name: string;
    body: string;
  }): Promise<{ html_url: string }> {
    return (
      await this.request<{ html_url: string }>("POST", "/releases", {
        ...input,
        make_latest: "true",
      })
    ).data;
  }
}

/** GitHub's error message when the body is its JSON, else the start of whatever came back. */
function messageOf(text: string): string {
  try {
    return (JSON.parse(text) as { message?: string }).message ?? text;
  } catch {
    return text.slice(0, 200);
  }
}
