// The load itself: the mix sent as the registered users (one request in flight per user), the
// artist's uploads in the background, and the report of the answers that went wrong.
import type { DevWorker } from "@edge-music/stack";
import { type Session, sessionCookie } from "./load-accounts.ts";
import { chooser, MIX, type MixData, seeded } from "./load-mix.ts";
import type { Recorder } from "./load-routes.ts";
import { type Upload, uploadTrack } from "./load-tracks.ts";
import { type LogLines, summarizeLine } from "./log-lines.ts";

export const UPLOAD_ROUTE = "POST /tracks (upload, background)";
export const REFRESH_ROUTE = "POST /users/auth/refresh";
export const ARTIST_REFRESH_ROUTE = "POST /artists/auth/refresh";

/** Declares every route of the run: the mix, the refreshes and the uploads. */
export function declareRoutes(recorder: Recorder): Recorder {
  for (const action of MIX) recorder.route(action.route, action.expect);
  recorder.route(REFRESH_ROUTE, [200]);
  recorder.route(ARTIST_REFRESH_ROUTE, [200]);
  recorder.route(UPLOAD_ROUTE, [202]);
  return recorder;
}

/**
 * One request of the mix per call, as one of the users not busy with another: with as many users
 * as clients, each user has at most one request in flight, as a person has.
 */
export function mixSender(
  worker: DevWorker,
  sessions: Session[],
  data: MixData,
  recorder: Recorder,
) {
  const free = [...sessions];
  const random = seeded(42);
  const choose = chooser(MIX);
  let sent = 0;
  return async (): Promise<Response> => {
    const session = free.pop();
    if (!session) throw new Error("more clients than users");
    try {
      const cookie = await sessionCookie(worker.url, session, ({ status, ms, requestId }) =>
        recorder.record(REFRESH_ROUTE, status, ms, () => ({ requestId, detail: session.id })),
      );
      const action = choose(random);
      const { method, path } = action.request(data, random);
      const requestId = `load-${String(++sent).padStart(8, "0")}`;
      const headers = {
        ...(action.anonymous ? {} : { cookie }),
        "cf-connecting-ip": session.ip,
        "x-request-id": requestId,
      };
      const started = performance.now();
      try {
        const answer = await fetch(`${worker.url}${path}`, { method, headers });
        const body = await answer.arrayBuffer();
        recorder.edge(action.route, answer.headers.get("x-edge-cache"));
        recorder.record(action.route, answer.status, performance.now() - started, () => ({
          requestId,
          detail: `${method} ${path}: ${new TextDecoder().decode(body).slice(0, 300)}`,
        }));
        return new Response(null, { status: answer.status });
      } catch (error) {
        recorder.record(action.route, 0, performance.now() - started, () => ({
          requestId,
          detail: `${method} ${path}: ${String(error)}`,
        }));
        return new Response(null, { status: 599 });
      }
    } finally {
      free.push(session);
    }
  };
}

/** An upload every `everySeconds` for `seconds` (the first after 5 s), as the artist. */
export async function backgroundUploads(
  worker: DevWorker,
  artist: Session,
  source: string,
  recorder: Recorder,
  { seconds, everySeconds }: { seconds: number; everySeconds: number },
): Promise<Upload[]> {
  const uploads: Upload[] = [];
  const end = performance.now() + seconds * 1000;
  for (let at = performance.now() + 5_000, k = 1; at < end; at += everySeconds * 1000, k++) {
    await new Promise((resolve) => setTimeout(resolve, at - performance.now()));
    const cookie = await sessionCookie(worker.url, artist, ({ status, ms, requestId }) =>
      recorder.record(ARTIST_REFRESH_ROUTE, status, ms, () => ({ requestId, detail: artist.id })),
    );
    const upload = await uploadTrack(
      worker.url,
      cookie,
      artist.ip,
      source,
      `Upload ${k}`,
      `load-upload-${k}`,
    );
    recorder.record(UPLOAD_ROUTE, upload.status, upload.ms, () => ({
      requestId: upload.requestId,
      detail: upload.body.slice(0, 300),
    }));
    uploads.push(upload);
  }
  return uploads;
}

/** The unexpected answers with the Worker's log lines of each, and the logs' warnings and errors. */
export function printProblems(recorder: Recorder, workerLog: LogLines, transcoderLog: LogLines) {
  for (const bad of recorder.samples()) {
    console.log(
      `  ${bad.route} → ${bad.status || "no answer"} (x-request-id ${bad.requestId}): ${bad.detail}`,
    );
    for (const line of workerLog.matching(bad.requestId, 3))
      console.log(`    worker: ${summarizeLine(line)}`);
  }
  for (const [name, log] of [
    ["Worker", workerLog],
    ["transcoder", transcoderLog],
  ] as const) {
    const problems = [...log.problems()].sort((a, b) => b[1] - a[1]);
    console.log(
      `${name} log, warnings and errors by message: ${problems.length === 0 ? "none" : ""}`,
    );
    for (const [message, n] of problems.slice(0, 15)) console.log(`  ${n}× ${message}`);
  }
}
