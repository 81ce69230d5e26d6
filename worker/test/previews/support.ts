import { env } from "cloudflare:workers";
import { albums, artists, playlists, playlistTracks, tracks, users } from "@edge-music/db";
import { eq } from "drizzle-orm";
import type { Bindings } from "../../src/env.ts";
import { uniqueName } from "../support/auth.ts";
import {
  insertAlbum,
  insertArtist,
  insertTrack,
  insertUser,
  withDb,
} from "../support/factories.ts";

/** The player's and the API's origins, as the test bindings set them. */
export const FRONTEND = "http://localhost:5173";
export const API = "http://localhost:8787";

/** A public READY track of a new artist with a display name, on a public album. */
export async function publicTrack(title = `Neon ${uniqueName("t")}`) {
  const artist = await insertArtist({ bio: "Synths by the harbour." });
  const name = `Night ${uniqueName("n")}`;
  await withDb((db) =>
    db.update(artists).set({ displayName: name }).where(eq(artists.id, artist.id)),
  );
  const album = await insertAlbum(artist.id);
  const track = await insertTrack(artist.id, { title, albumId: album.id });
  return { artist: { ...artist, displayName: name }, album, track };
}

/** A public playlist of a new listener (with a display name) holding `trackIds`. */
export async function publicPlaylist(trackIds: string[], displayName: string | null = "Mia") {
  const user = await insertUser();
  await withDb((db) => db.update(users).set({ displayName }).where(eq(users.id, user.id)));
  return await withDb(async (db) => {
    const [row] = await db
      .insert(playlists)
      .values({
        userId: user.id,
        title: `Drive ${uniqueName("p")}`,
        isPublic: true,
        visibility: "public",
      })
      .returning();
    if (!row) throw new Error("no playlist row");
    if (trackIds.length > 0) {
      await db
        .insert(playlistTracks)
        .values(trackIds.map((trackId, position) => ({ playlistId: row.id, trackId, position })));
    }
    return { playlist: row, user };
  });
}

/**
 * A PNG's first bytes at a media path in storage: the signature and the IHDR chunk saying
 * `width` × `height` (no pixels: only the header is read for a preview).
 */
export async function storePng(path: string, width: number, height: number) {
  const bytes = new Uint8Array(33);
  bytes.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);
  const view = new DataView(bytes.buffer);
  view.setUint32(16, width);
  view.setUint32(20, height);
  bytes.set([8, 6, 0, 0, 0], 24);
  await ((env as Bindings).MEDIA as R2Bucket).put(path.slice(1), bytes, {
    httpMetadata: { contentType: "image/png" },
  });
}

export const setTrack = (id: string, values: Partial<typeof tracks.$inferInsert>) =>
  withDb((db) => db.update(tracks).set(values).where(eq(tracks.id, id)));
export const setAlbum = (id: string, values: Partial<typeof albums.$inferInsert>) =>
  withDb((db) => db.update(albums).set(values).where(eq(albums.id, id)));
export const setPlaylist = (id: string, values: Partial<typeof playlists.$inferInsert>) =>
  withDb((db) => db.update(playlists).set(values).where(eq(playlists.id, id)));

/** HTMLRewriter gives attributes as written: the entities our pages write, decoded. */
const decoded = (value: string) =>
  value
    .replaceAll("&quot;", '"')
    .replaceAll("&#39;", "'")
    .replaceAll("&lt;", "<")
    .replaceAll("&gt;", ">")
    .replaceAll("&amp;", "&");

/** The head's tags as the page says them: `property`/`name` → content, and the links by rel. */
export async function headOf(response: Response) {
  const meta = new Map<string, string>();
  const links = new Map<string, Record<string, string>>();
  let title = "";
  let description: string | null = null;
  await new HTMLRewriter()
    .on("meta", {
      element(e) {
        const key = e.getAttribute("property") ?? e.getAttribute("name");
        const raw = e.getAttribute("content");
        const content = raw === null ? null : decoded(raw);
        if (key === "description") description = content;
        else if (key && content !== null) meta.set(key, content);
      },
    })
    .on("link", {
      element(e) {
        const rel = e.getAttribute("rel");
        if (rel)
          links.set(
            rel,
            Object.fromEntries([...e.attributes].map(([k, v]) => [k, decoded(v ?? "")])),
          );
      },
    })
    .on("title", {
      text(t) {
        title += t.text;
      },
    })
    .transform(response)
    .text();
  return { title, description: description as string | null, meta, links };
}
