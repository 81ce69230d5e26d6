import { readFile } from "node:fs/promises";
import { basename } from "node:path";

/** A signed-in client: the cookies the Worker set, sent back as a browser would. */
export interface Session {
  cookie: string;
}

export async function registerArtist(apiUrl: string): Promise<Session> {
  const id = crypto.randomUUID().slice(0, 8);
  const response = await fetch(`${apiUrl}/api/v1/artists/auth/register`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      username: `e2e_${id}`,
      email: `e2e-${id}@example.test`,
      password: `e2e-password-${crypto.randomUUID()}`,
    }),
  });
  await expectStatus(response, 201, "register");
  const cookie = response.headers
    .getSetCookie()
    .map((header) => header.split(";")[0])
    .join("; ");
  if (!cookie.includes("access_token=")) throw new Error("register set no access_token cookie");
  return { cookie };
}

export interface OwnTrack {
  id: string;
  duration: number | null;
  processingStatus: "PROCESSING" | "READY" | "FAILED";
  processingProgress: number;
  processingError: string | null;
}

export async function uploadTrack(
  apiUrl: string,
  session: Session,
  path: string,
  title: string,
): Promise<{ status: number; track: OwnTrack }> {
  const form = new FormData();
  form.set("title", title);
  form.set("file", new Blob([await readFile(path)], { type: "audio/mpeg" }), basename(path));
  const response = await fetch(`${apiUrl}/api/v1/tracks`, {
    method: "POST",
    headers: { cookie: session.cookie },
    body: form,
  });
  await expectStatus(response, 202, "upload");
  return { status: response.status, track: (await response.json()) as OwnTrack };
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
  const progress: number[] = [];
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const response = await fetch(`${apiUrl}/api/v1/tracks/${trackId}`, {
      headers: { cookie: session.cookie },
    });
    await expectStatus(response, 200, `GET /tracks/${trackId}`);
    const track = (await response.json()) as OwnTrack;
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

async function expectStatus(response: Response, status: number, what: string): Promise<void> {
  if (response.status === status) return;
  const body = await response.text().catch(() => "");
  throw new Error(`${what}: expected ${status}, got ${response.status}: ${body.slice(0, 500)}`);
}
