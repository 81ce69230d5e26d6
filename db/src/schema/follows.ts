import { userArtistLinkRelations, userArtistLinkTable } from "./user-artist-link";

/** A user following an artist. */
export const follows = userArtistLinkTable("follows");

export const followsRelations = userArtistLinkRelations(follows);

export type Follow = typeof follows.$inferSelect;
export type NewFollow = typeof follows.$inferInsert;
