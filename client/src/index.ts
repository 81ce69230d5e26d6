// The typed client of the API: openapi-fetch over the types generated from the OpenAPI document
// (src/schema.d.ts, `pnpm --filter @edge-music/client run generate`), with the cookie session,
// problem documents as ProblemError values, and uploads with progress. Browser and Node alike.
import createFetchClient, { type Client } from "openapi-fetch";
import type { paths } from "./schema.d.ts";
import {
  type AccountKind,
  type FetchLike,
  SessionRefresher,
  sessionMiddleware,
} from "./session.ts";
import {
  type DirectUploadInput,
  directUpload,
  type OwnTrack,
  type UploadContext,
  type UploadTrackInput,
  uploadTrack,
} from "./uploads.ts";

export { CookieJar } from "./cookie-jar.ts";
export { type FieldError, isProblem, type Problem, ProblemError, unwrap } from "./problem.ts";
export type { components, operations, paths } from "./schema.d.ts";
export type { AccountKind, FetchLike } from "./session.ts";
export type { DirectUploadInput, OwnTrack, UploadProgress, UploadTrackInput } from "./uploads.ts";

export interface ClientOptions {
  /** The service's origin (`https://api.example.com`); paths start with /api/v1. */
  baseUrl: string;
  /** Whose session the client refreshes: POST /api/v1/{kind}s/auth/refresh. */
  kind: AccountKind;
  /** globalThis.fetch by default; in Node, one that keeps cookies (Node's keeps none). */
  fetch?: FetchLike;
  /**
   * Called when a refresh is refused (401): the session has ended, here or elsewhere (another
   * device ended it, it expired). The call that met it still answers its 401.
   */
  onSessionEnded?: () => void;
}

export type EdgeMusicClient = Client<paths> & {
  readonly kind: AccountKind;
  /** Refreshes the session now (shared with any refresh under way); false if it has ended. */
  refreshSession(): Promise<boolean>;
  /** The form upload (POST /api/v1/tracks) with progress; an artist's client. */
  uploadTrack(input: UploadTrackInput): Promise<OwnTrack>;
  /** A large file straight to storage in parts, with progress; an artist's client. */
  directUpload(input: DirectUploadInput): Promise<OwnTrack>;
};

export function createClient(options: ClientOptions): EdgeMusicClient {
  const baseUrl = options.baseUrl.replace(/\/+$/, "");
  // Looked up at call time, not bound once: tests and polyfills may replace globalThis.fetch.
  const fetch: FetchLike = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  const refresher = new SessionRefresher(
    fetch,
    `${baseUrl}/api/v1/${options.kind}s/auth/refresh`,
    options.onSessionEnded,
  );
  const api = createFetchClient<paths>({
    baseUrl,
    credentials: "include",
    fetch: (request: Request) => fetch(request),
  });
  api.use(sessionMiddleware(refresher));
  const ctx: UploadContext = { api, baseUrl, fetch, refresher };
  return Object.assign(api, {
    kind: options.kind,
    refreshSession: () => refresher.refreshSince(refresher.epoch),
    uploadTrack: (input: UploadTrackInput) => uploadTrack(ctx, input),
    directUpload: (input: DirectUploadInput) => directUpload(ctx, input),
  });
}
