// The API as a client application uses it: through the typed client, with a cookie jar standing
// in for the browser's cookies (Node's fetch keeps none).
import { readFile } from "node:fs/promises";
import { basename } from "node:path";
import {
  CookieJar,
  createClient,
  type EdgeMusicClient,
  type OwnTrack,
  type UploadProgress,
} from "@edge-music/client";

export type { OwnTrack };

/** A signed-in artist: the typed client, and the cookies the Worker set, as a browser sends them. */
export interface Session {
  /** The Worker's origin the client talks to. */
  apiUrl: string;
  api: EdgeMusicClient;
  /** The Cookie header of a request to the API now (after any refresh); for raw requests. */
  readonly cookie: string;
}

export async function registerArtist(apiUrl: string): Promise<Session> {
  const jar = new CookieJar();
  const api = createClient({ baseUrl: apiUrl, kind: "artist", fetch: jar.fetch });
  const id = crypto.randomUUID().slice(0, 8);
  const { error, response } = await api.POST("/api/v1/artists/auth/register", {
    body: {
      username: `e2e_${id}`,
      email: `e2e-${id}@example.test`,
      password: `e2e-password-${crypto.randomUUID()}`,
    },
  });
  expectStatus(response, 201, "register", error);
  if (!jar.get("access_token")) throw new Error("register set no access_token cookie");
  return {
    apiUrl,
    api,
    get cookie() {
      return jar.header(`${apiUrl}/api/v1/tracks`);
    },
  };
}

/** The form upload (POST /tracks) of a file on disk: 202 with the track, else it throws. */
export async function uploadTrack(
  apiUrl: string,
  session: Session,
  path: string,
  title: string,
  onProgress?: (progress: UploadProgress) => void,
): Promise<{ status: number; track: OwnTrack }> {
  checkBase(apiUrl, session);
  const file = new File([await readFile(path)], basename(path), { type: "audio/mpeg" });
  // The client throws a ProblemError for anything but 202.
  const track = await session.api.uploadTrack({
    file,
    title,
    ...(onProgress ? { onProgress } : {}),
  });
  return { status: 202, track };
}

/**
 * Reads the track as its owner until it is READY (or FAILED, or the time is up) and returns every
 * progress value seen on the way, in order.
 */
export async function waitUntilReady(
  apiUrl: string,
  session: Session,
  trackId: string,
  timeoutMs: number,
): Promise<{ track: OwnTrack; progress: number[] }> {
  checkBase(apiUrl, session);
  const progress: number[] = [];
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { data, error, response } = await session.api.GET("/api/v1/tracks/{id}", {
      params: { path: { id: trackId } },
    });
    expectStatus(response, 200, `GET /tracks/${trackId}`, error);
    // The owner always gets the OwnTrack view, whatever the state.
    if (!data || !("processingStatus" in data)) throw new Error("the owner got the public view");
    const track = data;
    progress.push(track.processingProgress);
    if (track.processingStatus === "READY") return { track, progress };
    if (track.processingStatus === "FAILED") {
      throw new Error(`the conversion failed: ${track.processingError}`);
    }
    if (Date.now() > deadline) {
      throw new Error(
        `still ${track.processingStatus} after ${timeoutMs} ms (progress seen: ${progress})`,
      );
    }
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** A session's client talks to the Worker it signed in to: another one is a mistake in the test. */
function checkBase(apiUrl: string, session: Session): void {
  if (apiUrl !== session.apiUrl) {
    throw new Error(`the session is on ${session.apiUrl}, not ${apiUrl}`);
  }
}

function expectStatus(response: Response, status: number, what: string, error: unknown): void {
  if (response.status === status) return;
  const body = JSON.stringify(error ?? "").slice(0, 500);
  throw new Error(`${what}: expected ${status}, got ${response.status}: ${body}`);
}
