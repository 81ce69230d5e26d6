import { z } from "@hono/zod-openapi";
import { MediaPath, Timestamp } from "../../../validation/common.ts";
import { DisplayNameOut } from "../../auth/schema.ts";
import { ArtistDto } from "../profile/schema.ts";

const Uuid = z.uuid().openapi({ example: "0195f3a4-8c1e-7d2a-9b3c-4d5e6f708192" });
const Username = z.string().openapi({ example: "nightdrive" });
const FollowerCount = z
  .object({ followers: z.number().int().min(0).openapi({ example: 1204 }) })
  .openapi("FollowerCount");

export const FollowStateDto = z
  .object({
    id: Uuid,
    username: Username,
    displayName: DisplayNameOut,
    avatar: MediaPath,
    _count: FollowerCount,
  })
  .openapi("ArtistFollowState", {
    description: "The artist with its follower count as of the moment after the change.",
  });

const LikeCount = z
  .object({ likes: z.number().int().min(0).openapi({ example: 87 }) })
  .openapi("LikeCount");

// The caller's lists show the public profile (ArtistDto), with the relation's time and count.
export const FollowedArtistDto = ArtistDto.extend({
  followedAt: Timestamp.openapi({ description: "When the caller followed the artist." }),
  _count: FollowerCount,
}).openapi("FollowedArtist", { description: "Never carries the artist's email or password." });

export const FollowingPageDto = z.array(FollowedArtistDto).openapi("FollowingPage");

export const LikedArtistDto = ArtistDto.extend({
  likedAt: Timestamp.openapi({ description: "When the caller liked the artist." }),
  _count: LikeCount,
}).openapi("LikedArtist", { description: "Never carries the artist's email or password." });

export const LikeStateDto = z
  .object({
    liked: z.boolean().openapi({ description: "Whether the caller likes the artist now." }),
    _count: LikeCount,
  })
  .openapi("ArtistLikeState");

export type FollowState = z.infer<typeof FollowStateDto>;
export type FollowedArtist = z.infer<typeof FollowedArtistDto>;
export type LikedArtist = z.infer<typeof LikedArtistDto>;
export type LikeState = z.infer<typeof LikeStateDto>;
