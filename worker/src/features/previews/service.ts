import { type Dimensions, storedImageDimensions } from "../../images/dimensions.ts";
import type { RequestDeps } from "../../request-deps.ts";
import {
  albumPreviewQuery,
  artistPreviewQuery,
  playlistPreviewQuery,
  trackPreviewQuery,
} from "./queries.ts";

/** The pages that unfurl, by the first segment of their path. */
export const PREVIEW_KINDS = ["tracks", "albums", "playlists", "artists"] as const;
export type PreviewKind = (typeof PREVIEW_KINDS)[number];
/** The kinds that have an embeddable player (/embed/{kind}/{id}) and an oEmbed answer. */
export const EMBED_KINDS = ["tracks", "albums", "playlists"] as const;
export type EmbedKind = (typeof EMBED_KINDS)[number];

export const isEmbedKind = (kind: string): kind is EmbedKind =>
  (EMBED_KINDS as readonly string[]).includes(kind);

/** What a link preview says of a public item; made from one statement, kept by the edge cache. */
export interface Preview {
  kind: PreviewKind;
  id: string;
  title: string;
  description: string;
  /**
   * Who made it: the artist (with the path of their page), or a playlist's owner by their display
   * name (null without one: a listener's username is never shown; no page either).
   */
  author: { name: string | null; path: string | null };
  /** A media path (/static/…) of its picture, or null (the site's picture then). */
  image: string | null;
  /** The size of that picture, when its header says it (`og:image:width`, oEmbed's thumbnail). */
  imageSize: Dimensions | null;
  /** A track's length in seconds. */
  duration: number | null;
  /** A track's audio for `og:audio`: its smallest whole Opus file, else its HLS playlist. */
  audio: { path: string; type: string } | null;
}

const DESCRIPTION_MAX = 200;
const STREAM = "/api/v1/tracks/stream";

/** At most 200 characters on one line, cut at a word with an ellipsis. */
export function shortened(text: string): string {
  const line = text.replace(/\s+/g, " ").trim();
  if (line.length <= DESCRIPTION_MAX) return line;
  const cut = line.slice(0, DESCRIPTION_MAX - 1);
  const space = cut.lastIndexOf(" ");
  return `${space > DESCRIPTION_MAX / 2 ? cut.slice(0, space) : cut}…`;
}

const count = (n: number, noun: string) => `${n} ${noun}${n === 1 ? "" : "s"}`;

/** m:ss (or h:mm:ss) of a duration in seconds. */
export function clock(seconds: number): string {
  const s = Math.round(seconds);
  const [h, m, r] = [Math.floor(s / 3600), Math.floor((s % 3600) / 60), s % 60];
  const pad = (n: number) => String(n).padStart(2, "0");
  return h > 0 ? `${h}:${pad(m)}:${pad(r)}` : `${m}:${pad(r)}`;
}

/**
 * The preview of a public item, or null for one that is missing, private, unlisted or (a track)
 * not READY: one database round trip, then the first bytes of its picture from storage for its
 * size (the edge keeps the whole preview).
 */
export async function findPreview(
  ctx: Pick<RequestDeps, "db" | "storage">,
  kind: PreviewKind,
  id: string,
): Promise<Preview | null> {
  const preview = await readPreview(ctx.db, kind, id);
  if (!preview) return null;
  return { ...preview, imageSize: await storedImageDimensions(ctx.storage, preview.image) };
}

async function readPreview(
  db: RequestDeps["db"],
  kind: PreviewKind,
  id: string,
): Promise<Omit<Preview, "imageSize"> | null> {
  switch (kind) {
    case "tracks": {
      const [row] = await trackPreviewQuery(db, id);
      if (!row) return null;
      const parts = [`A track by ${row.artistName}`];
      if (row.albumTitle) parts.push(`from ${row.albumTitle}`);
      const length = row.duration ? ` · ${clock(row.duration)}` : "";
      return {
        kind,
        id,
        title: row.title,
        description: shortened(`${parts.join(" ")}${length}`),
        author: { name: row.artistName, path: `/artists/${row.artistId}` },
        image: row.cover ?? row.albumCover ?? row.artistAvatar,
        duration: row.duration,
        audio: row.opusKbps
          ? { path: `${STREAM}/${id}/audio/${row.opusKbps}.opus`, type: "audio/ogg" }
          : { path: `${STREAM}/${id}/hls/master.m3u8`, type: "application/vnd.apple.mpegurl" },
      };
    }
    case "albums": {
      const [row] = await albumPreviewQuery(db, id);
      if (!row) return null;
      const year = row.releasedAt ? ` · ${row.releasedAt.slice(0, 4)}` : "";
      const summary = `An album by ${row.artistName}${year} · ${count(row.trackCount, "track")}`;
      return {
        kind,
        id,
        title: row.title,
        description: shortened(row.description ? `${summary}. ${row.description}` : summary),
        author: { name: row.artistName, path: `/artists/${row.artistId}` },
        image: row.cover ?? row.artistAvatar,
        duration: null,
        audio: null,
      };
    }
    case "playlists": {
      const [row] = await playlistPreviewQuery(db, id);
      if (!row) return null;
      const by = row.ownerName ? ` by ${row.ownerName}` : "";
      const summary = `A playlist${by} · ${count(row.trackCount, "track")}`;
      return {
        kind,
        id,
        title: row.title,
        description: shortened(row.description ? `${summary}. ${row.description}` : summary),
        author: { name: row.ownerName, path: null },
        image: row.cover ?? row.firstCover,
        duration: null,
        audio: null,
      };
    }
    case "artists": {
      const [row] = await artistPreviewQuery(db, id);
      if (!row) return null;
      const summary = `Artist · ${count(row.trackCount, "track")}`;
      return {
        kind,
        id,
        title: row.name,
        description: shortened(row.bio ? `${summary}. ${row.bio}` : summary),
        author: { name: row.name, path: `/artists/${id}` },
        image: row.avatar,
        duration: null,
        audio: null,
      };
    }
  }
}
