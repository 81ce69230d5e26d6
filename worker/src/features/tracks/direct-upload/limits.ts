// The quotas of direct uploads per artist: how many may be open at once, the bytes they declare,
// and how many may start a day. Checked, and the upload's place taken, in the request's first
// round trip (the one that checks the session), before storage is asked for anything.
import {
  albums,
  artists,
  type HttpDatabase,
  rateLimits,
  trackUploads,
  type Visibility,
} from "@edge-music/db";
import { eq, type SQL, sql } from "drizzle-orm";
import type { Env } from "../../../env.ts";
import { ConflictError, NotFoundError, RateLimitedError } from "../../../errors/app-error.ts";

const DAY_SECONDS = 24 * 60 * 60;

/**
 * The `multipart_id` of an upload whose place is taken but whose multipart upload storage has not
 * started yet (the column is NOT NULL). Such a row is nobody's to use: the client learns its id
 * only once storage's id has replaced this.
 */
export const PENDING_MULTIPART = "";

export interface UploadLimits {
  /** Uploads open at once: started, and neither completed, aborted nor past their day. */
  maxOpen: number;
  /** Bytes those may declare together (storage holds at most that much of the artist's parts). */
  maxOpenBytes: number;
  /** Uploads started in a day (a fixed window from the first start). */
  maxPerDay: number;
}

export const uploadLimits = (env: Env): UploadLimits => ({
  maxOpen: env.MAX_OPEN_DIRECT_UPLOADS,
  maxOpenBytes: env.MAX_OPEN_DIRECT_UPLOAD_BYTES ?? 4 * env.MAX_DIRECT_UPLOAD_BYTES,
  maxPerDay: env.MAX_DIRECT_UPLOADS_PER_DAY,
});

/** The `rate_limits` counter of an artist's starts. */
export const dayKey = (artistId: string) => `uploads:artist:${artistId}`;

export interface UploadToReserve {
  id: string;
  artistId: string;
  albumId: string | undefined;
  title: string;
  visibility: Visibility;
  fileName: string;
  contentType: string;
  size: number;
  storageKey: string;
  expiresAt: Date;
}

/** What the reservation read (in the snapshot it wrote in) and whether it took the place. */
export interface Reservation {
  uploads: number;
  bytes: string;
  started: number;
  since: string | Date | null;
  albumOk: boolean;
  reserved: boolean;
}

const column = (c: { name: string }) => sql.identifier(c.name);

/**
 * The statements that take an upload's place, for one batch (one round trip, with the session
 * check before them; one transaction). First the artist's row is locked: the starts of one artist
 * run one after another, and the statement after the lock, which reads anew (READ COMMITTED),
 * sees every start committed before it. A count in one statement alone would not: two parallel
 * starts would each count the other's row out and both go in. Then one statement reads the
 * artist's open uploads, the day's count and the album, inserts the row (storage's id still
 * PENDING_MULTIPART) only when all are within their limits, and counts the start against the day
 * only when it was taken: a start refused for any reason uses up nothing.
 */
export function reservationStatements(
  db: HttpDatabase,
  upload: UploadToReserve,
  limits: UploadLimits,
  now: Date,
) {
  const at = (date: Date): SQL => sql`${date.toISOString()}::timestamptz`;
  const windowStart = at(new Date(now.getTime() - DAY_SECONDS * 1000));
  const key = dayKey(upload.artistId);
  const albumId = upload.albumId ?? null;
  const u = trackUploads;
  const r = rateLimits;
  const lock = db
    .select({ id: artists.id })
    .from(artists)
    .where(eq(artists.id, upload.artistId))
    .for("no key update");
  const reserve = db.execute(sql`
    with open as (
      select count(*)::int as uploads, coalesce(sum(${u.size}), 0)::bigint as bytes
      from ${u}
      where ${u.artistId} = ${upload.artistId} and ${u.expiresAt} > ${at(now)}
    ), day as (
      select coalesce(max(${r.hits}), 0)::int as started, max(${r.windowStartedAt}) as since
      from ${r}
      where ${r.key} = ${key} and ${r.windowStartedAt} > ${windowStart}
    ), album as (
      select ${albumId}::uuid is null or exists (
        select from ${albums}
        where ${albums.id} = ${albumId}::uuid and ${albums.artistId} = ${upload.artistId}
      ) as ok
    ), reserved as (
      insert into ${u} (${column(u.id)}, ${column(u.artistId)}, ${column(u.albumId)}, ${column(u.title)},
        ${column(u.visibility)}, ${column(u.fileName)}, ${column(u.contentType)}, ${column(u.size)}, ${column(u.storageKey)},
        ${column(u.multipartId)}, ${column(u.expiresAt)})
      select ${upload.id}::uuid, ${upload.artistId}::uuid, ${albumId}::uuid, ${upload.title},
        ${upload.visibility}::visibility, ${upload.fileName}, ${upload.contentType}, ${upload.size}::bigint, ${upload.storageKey},
        ${PENDING_MULTIPART}, ${at(upload.expiresAt)}
      from open, day, album
      where album.ok and day.started < ${limits.maxPerDay}::int
        and open.uploads < ${limits.maxOpen}::int
        and open.bytes + ${upload.size}::bigint <= ${limits.maxOpenBytes}::bigint
      returning 1
    ), counted as (
      insert into ${r} (${column(r.key)}, ${column(r.windowStartedAt)}, ${column(r.hits)})
      select ${key}, ${at(now)}, 1 from reserved
      on conflict (${column(r.key)}) do update set
        ${column(r.hits)} = case when ${r.windowStartedAt} <= ${windowStart} then 1 else ${r.hits} + 1 end,
        ${column(r.windowStartedAt)} = case when ${r.windowStartedAt} <= ${windowStart} then ${at(now)} else ${r.windowStartedAt} end
    )
    select open.uploads, open.bytes::text as bytes, day.started, day.since, album.ok as "albumOk",
      exists (select from reserved) as reserved
    from open, day, album`);
  return [lock, reserve] as const;
}

/** Why the reservation took no place (404, 429, 409, in that order), or null when it did. */
export function refusalOf(
  found: Reservation,
  upload: Pick<UploadToReserve, "size">,
  limits: UploadLimits,
  now: Date,
) {
  if (found.reserved) return null;
  if (!found.albumOk) return new NotFoundError("No such album of yours.");
  if (found.started >= limits.maxPerDay) {
    const since = found.since ? new Date(found.since).getTime() : now.getTime();
    const retryAfter = Math.max(1, Math.ceil((since + DAY_SECONDS * 1000 - now.getTime()) / 1000));
    return new RateLimitedError(
      retryAfter,
      `At most ${limits.maxPerDay} direct uploads a day may be started; the next can start in ${retryAfter} seconds.`,
    );
  }
  const open = { openUploads: found.uploads, maxOpenUploads: limits.maxOpen };
  if (found.uploads >= limits.maxOpen) {
    return new ConflictError(
      `You have ${found.uploads} open uploads, the most at once: complete or abort one (DELETE /api/v1/uploads/{uploadId}) first.`,
      { extensions: open },
    );
  }
  const bytes = Number(found.bytes);
  return new ConflictError(
    `Your open uploads declare ${bytes} bytes; with this file's ${upload.size} they would pass the ${limits.maxOpenBytes} bytes they may declare at once: complete or abort one first.`,
    { extensions: { ...open, openBytes: bytes, maxOpenBytes: limits.maxOpenBytes } },
  );
}
