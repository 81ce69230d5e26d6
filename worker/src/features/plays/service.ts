import { tracks } from "@edge-music/db";
import { and, eq, ne } from "drizzle-orm";
import { NotFoundError } from "../../errors/app-error.ts";
import type { RequestDeps } from "../../request-deps.ts";
import { hitLimits } from "../../security/rate-limit.ts";
import { verifyStream } from "../../security/stream-signature.ts";
import { hearableTrack } from "../sharing/queries.ts";
import { networkListener } from "./listener-key.ts";
import { recordPlay } from "./record.ts";
import type { PlayReportInput } from "./schema.ts";

/** Anonymous play reports one network may make in an hour (a household, an office's NAT). */
export const ANONYMOUS_PLAYS_PER_HOUR = 300;

type AnonymousPlayDeps = Pick<RequestDeps, "db" | "env" | "log" | "waitUntil" | "now" | "ip">;

/**
 * A play heard by someone not signed in. One round trip: the network's hit on its limit (keyed
 * by the network's hash, never its address) and the track, READY and public or unlisted with its
 * key (compared in SQL) or with the signature of its signed stream URLs (judged here); then the
 * report goes to the queue after the response. Whether it counts (10 minutes since
 * this network's last play of it) is the consumer's call.
 */
export async function reportAnonymousPlay(
  deps: AnonymousPlayDeps,
  input: PlayReportInput,
  country: string,
): Promise<{ trackId: string; reportedAt: string }> {
  const listener = await networkListener(deps.env.JWT_SECRET, deps.ip, deps.now);
  const limit = { key: `plays:${listener}`, max: ANONYMOUS_PLAYS_PER_HOUR, windowSeconds: 3600 };
  const signed = input.exp !== undefined || input.sig !== undefined;
  const rows = await hitLimits(
    deps.db,
    [limit],
    deps.now,
    deps.db
      .select({ id: tracks.id, visibility: tracks.visibility, shareKey: tracks.shareKey })
      .from(tracks)
      .where(
        and(
          eq(tracks.id, input.trackId),
          // With a signature, an unlisted track is read and the signature judged below.
          signed && input.key === undefined
            ? and(eq(tracks.processingStatus, "READY"), ne(tracks.visibility, "private"))
            : hearableTrack(input.key),
        ),
      ),
  );
  const [row] = rows;
  const heard =
    row !== undefined &&
    (row.visibility === "public" ||
      !signed ||
      (await verifyStream(deps.env.JWT_SECRET, row.id, row.shareKey, input, deps.now)));
  if (!heard) throw new NotFoundError(`No playable track with id ${input.trackId}.`);
  recordPlay(deps, { trackId: input.trackId, listener, country, at: deps.now });
  return { trackId: input.trackId, reportedAt: deps.now.toISOString() };
}
