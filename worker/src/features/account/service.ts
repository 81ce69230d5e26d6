// Leaving the service and taking one's data along (GDPR articles 15, 17 and 20). An artist leaves
// through DELETE /artists/{id} (artists/profile); both kinds export here.
import {
  albumLikes,
  albums,
  artistAppPasswords,
  artistLikes,
  artists,
  artistTwoFactor,
  follows,
  listeningHistory,
  nowPlaying,
  playlistLikes,
  playlists,
  playlistTracks,
  playQueues,
  trackLikes,
  trackRatings,
  tracks,
  userAppPasswords,
  users,
  userTwoFactor,
} from "@edge-music/db";
import { asc, count, eq, inArray } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { discardImages } from "../../images/replace.ts";
import type { RequestDeps } from "../../request-deps.ts";
import type { Principal } from "../../security/principal.ts";
import { type ReauthProof, reauthenticate } from "../auth/reauth.ts";
import { accountView, toAccount } from "../auth/session/service.ts";
import { sessionsQuery, toSessionViews } from "../auth/sessions/service.ts";
import type { AuthContext } from "../auth/shared.ts";
import { withSecondFactor } from "../auth/two-factor/second-factor.ts";

/**
 * Deletes the listener's account after re-authentication, in one batch with the check's proof:
 * the account and, by the schema's cascades, its sessions, 2FA, reset links, identity links,
 * history, likes, follows and playlists with their entries. The playlists' cover objects are
 * deleted after the response.
 */
export async function deleteUser(
  ctx: AuthContext & Pick<RequestDeps, "storage">,
  principal: Principal,
  proof: ReauthProof,
) {
  const { first, giveBack } = await reauthenticate(ctx, principal, proof, {
    codeWhenEnabled: true,
  });
  const { db } = ctx;
  const results = (await withSecondFactor(
    () =>
      db.batch([
        ...first,
        db
          .select({ cover: playlists.cover })
          .from(playlists)
          .where(eq(playlists.userId, principal.id)),
        db.delete(users).where(eq(users.id, principal.id)).returning({ id: users.id }),
      ] as unknown as [BatchItem<"pg">, ...BatchItem<"pg">[]]),
    giveBack,
  )) as unknown[];
  const covers = results.at(-2) as Array<{ cover: string | null }>;
  ctx.waitUntil(
    discardImages(
      ctx,
      covers.map((row) => row.cover),
      { userId: principal.id },
    ),
  );
}

/**
 * PATCH /users/me: the display name. One batch: the update and the account read back (with its
 * 2FA state), as GET /users/me answers it.
 */
export async function updateUserProfile(
  ctx: AuthContext,
  principal: Principal,
  displayName: string | null,
) {
  const { db } = ctx;
  const [, rows] = await db.batch([
    db.update(users).set({ displayName }).where(eq(users.id, principal.id)),
    accountView(ctx, principal.id),
  ]);
  return toAccount(ctx, rows[0]);
}

/**
 * Everything the service holds about the listener, in one round trip: the account (without its
 * password hash, 2FA secret or recovery codes, which are kept only as one-way or sealed values),
 * its sessions, listening history, playlists with their tracks, likes and follows.
 */
export async function exportUser(ctx: AuthContext, principal: Principal) {
  const { db } = ctx;
  const own = db
    .select({ id: playlists.id })
    .from(playlists)
    .where(eq(playlists.userId, principal.id));
  const [
    accounts,
    factors,
    history,
    lists,
    entries,
    likedPlaylists,
    likedArtists,
    likedTracks,
    queues,
    followed,
    sessionRows,
    likedAlbums,
    ratings,
    playing,
    appPasswords,
  ] = await db.batch([
    db
      .select({
        id: users.id,
        username: users.username,
        displayName: users.displayName,
        email: users.email,
        emailVerifiedAt: users.emailVerifiedAt,
        createdAt: users.createdAt,
        updatedAt: users.updatedAt,
      })
      .from(users)
      .where(eq(users.id, principal.id)),
    db
      .select({ enabledAt: userTwoFactor.enabledAt })
      .from(userTwoFactor)
      .where(eq(userTwoFactor.principalId, principal.id)),
    db
      .select({ trackId: listeningHistory.trackId, listenedAt: listeningHistory.listenedAt })
      .from(listeningHistory)
      .where(eq(listeningHistory.userId, principal.id))
      .orderBy(asc(listeningHistory.listenedAt)),
    db.select().from(playlists).where(eq(playlists.userId, principal.id)),
    db
      .select()
      .from(playlistTracks)
      .where(inArray(playlistTracks.playlistId, own))
      .orderBy(asc(playlistTracks.playlistId), asc(playlistTracks.position)),
    db
      .select({ playlistId: playlistLikes.playlistId })
      .from(playlistLikes)
      .where(eq(playlistLikes.userId, principal.id)),
    db
      .select({ artistId: artistLikes.artistId, at: artistLikes.createdAt })
      .from(artistLikes)
      .where(eq(artistLikes.userId, principal.id)),
    db
      .select({ trackId: trackLikes.trackId, at: trackLikes.createdAt })
      .from(trackLikes)
      .where(eq(trackLikes.userId, principal.id))
      .orderBy(asc(trackLikes.createdAt)),
    db.select().from(playQueues).where(eq(playQueues.userId, principal.id)),
    db
      .select({ artistId: follows.artistId, at: follows.createdAt })
      .from(follows)
      .where(eq(follows.userId, principal.id)),
    sessionsQuery(ctx, principal),
    db
      .select({ albumId: albumLikes.albumId, at: albumLikes.createdAt })
      .from(albumLikes)
      .where(eq(albumLikes.userId, principal.id))
      .orderBy(asc(albumLikes.createdAt)),
    db
      .select({
        trackId: trackRatings.trackId,
        rating: trackRatings.rating,
        at: trackRatings.updatedAt,
      })
      .from(trackRatings)
      .where(eq(trackRatings.userId, principal.id))
      .orderBy(asc(trackRatings.updatedAt)),
    db.select().from(nowPlaying).where(eq(nowPlaying.userId, principal.id)),
    appPasswordsQuery(db, userAppPasswords, principal),
  ]);
  const [account] = accounts;
  const sessions = toSessionViews(sessionRows, principal);
  return {
    exportedAt: ctx.now.toISOString(),
    account: account
      ? {
          ...account,
          emailVerifiedAt: account.emailVerifiedAt?.toISOString() ?? null,
          createdAt: account.createdAt.toISOString(),
          updatedAt: account.updatedAt.toISOString(),
          twoFactorEnabled: Boolean(factors[0]?.enabledAt),
        }
      : null,
    sessions,
    history: history.map((h) => ({ trackId: h.trackId, listenedAt: h.listenedAt.toISOString() })),
    playlists: lists.map((p) => ({
      id: p.id,
      title: p.title,
      description: p.description,
      isPublic: p.isPublic,
      cover: p.cover,
      tracks: entries
        .filter((e) => e.playlistId === p.id)
        .map((e) => ({
          trackId: e.trackId,
          position: e.position,
          addedAt: e.addedAt.toISOString(),
        })),
    })),
    likedPlaylists: likedPlaylists.map((l) => l.playlistId),
    likedArtists: likedArtists.map((l) => ({ artistId: l.artistId, at: l.at.toISOString() })),
    likedTracks: likedTracks.map((l) => ({ trackId: l.trackId, at: l.at.toISOString() })),
    playQueue: queues[0]
      ? {
          trackIds: queues[0].trackIds,
          current: queues[0].currentTrackId,
          position: queues[0].position,
          changedAt: queues[0].updatedAt.toISOString(),
          changedBy: queues[0].changedBy,
        }
      : null,
    follows: followed.map((f) => ({ artistId: f.artistId, at: f.at.toISOString() })),
    likedAlbums: likedAlbums.map((l) => ({ albumId: l.albumId, at: l.at.toISOString() })),
    ratings: ratings.map((r) => ({ trackId: r.trackId, rating: r.rating, at: r.at.toISOString() })),
    nowPlaying: playing[0]
      ? {
          trackId: playing[0].trackId,
          client: playing[0].client,
          startedAt: playing[0].startedAt.toISOString(),
        }
      : null,
    appPasswords: appPasswords.map(toAppPasswordExport),
  };
}

/** The account's app passwords by name and times (the secret is never exported), oldest first. */
const appPasswordsQuery = (
  db: AuthContext["db"],
  table: typeof userAppPasswords | typeof artistAppPasswords,
  principal: Principal,
) =>
  db
    .select({
      id: table.id,
      name: table.name,
      createdAt: table.createdAt,
      lastUsedAt: table.lastUsedAt,
    })
    .from(table)
    .where(eq(table.principalId, principal.id))
    .orderBy(asc(table.createdAt));

const toAppPasswordExport = (row: {
  id: string;
  name: string;
  createdAt: Date;
  lastUsedAt: Date | null;
}) => ({
  id: row.id,
  name: row.name,
  createdAt: row.createdAt.toISOString(),
  lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
});

/**
 * Everything the service holds about the artist, in one round trip: the account (no password
 * hash, 2FA secret or recovery codes), its sessions, every track in every state with its
 * processing record, its albums, and how many follow and like it (who does is the listeners' data).
 */
export async function exportArtist(ctx: AuthContext, principal: Principal) {
  const { db } = ctx;
  const [accounts, factors, ownTracks, ownAlbums, followers, likers, sessionRows, appPasswords] =
    await db.batch([
      db
        .select({
          id: artists.id,
          username: artists.username,
          displayName: artists.displayName,
          email: artists.email,
          emailVerifiedAt: artists.emailVerifiedAt,
          bio: artists.bio,
          avatar: artists.avatar,
          backgroundImage: artists.backgroundImage,
          createdAt: artists.createdAt,
        })
        .from(artists)
        .where(eq(artists.id, principal.id)),
      db
        .select({ enabledAt: artistTwoFactor.enabledAt })
        .from(artistTwoFactor)
        .where(eq(artistTwoFactor.principalId, principal.id)),
      db
        .select()
        .from(tracks)
        .where(eq(tracks.artistId, principal.id))
        .orderBy(asc(tracks.createdAt)),
      db
        .select()
        .from(albums)
        .where(eq(albums.artistId, principal.id))
        .orderBy(asc(albums.createdAt)),
      db.select({ n: count() }).from(follows).where(eq(follows.artistId, principal.id)),
      db.select({ n: count() }).from(artistLikes).where(eq(artistLikes.artistId, principal.id)),
      sessionsQuery(ctx, principal),
      appPasswordsQuery(db, artistAppPasswords, principal),
    ]);
  const [account] = accounts;
  const iso = (value: Date | null) => value?.toISOString() ?? null;
  return {
    exportedAt: ctx.now.toISOString(),
    account: account
      ? {
          ...account,
          emailVerifiedAt: iso(account.emailVerifiedAt),
          createdAt: account.createdAt.toISOString(),
          twoFactorEnabled: Boolean(factors[0]?.enabledAt),
        }
      : null,
    sessions: toSessionViews(sessionRows, principal),
    tracks: ownTracks.map((t) => ({
      ...t,
      processingStartedAt: iso(t.processingStartedAt),
      processingFinishedAt: iso(t.processingFinishedAt),
      createdAt: t.createdAt.toISOString(),
      updatedAt: t.updatedAt.toISOString(),
    })),
    albums: ownAlbums.map((a) => ({
      ...a,
      createdAt: a.createdAt.toISOString(),
      updatedAt: a.updatedAt.toISOString(),
    })),
    followers: followers[0]?.n ?? 0,
    likes: likers[0]?.n ?? 0,
    appPasswords: appPasswords.map(toAppPasswordExport),
  };
}
