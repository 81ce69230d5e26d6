import { artists } from "@edge-music/db";

/** What anyone may see of an artist (never the email): profiles, follows and search answers. */
export const publicArtistColumns = {
  id: artists.id,
  username: artists.username,
  bio: artists.bio,
  avatar: artists.avatar,
  backgroundImage: artists.backgroundImage,
  createdAt: artists.createdAt,
};
