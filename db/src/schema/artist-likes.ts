import { userArtistLinkRelations, userArtistLinkTable } from "./user-artist-link";

/** A user liking an artist; independent of following. */
export const artistLikes = userArtistLinkTable("artist_likes");

export const artistLikesRelations = userArtistLinkRelations(artistLikes);

export type ArtistLike = typeof artistLikes.$inferSelect;
export type NewArtistLike = typeof artistLikes.$inferInsert;
