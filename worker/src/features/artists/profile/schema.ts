import { z } from "@hono/zod-openapi";
import { MediaPath, Timestamp, uuidParam } from "../../../validation/common.ts";
import { DisplayName, DisplayNameOut, Username } from "../../auth/schema.ts";

export const ArtistDto = z
  .object({
    id: z.uuid(),
    username: z.string().openapi({ example: "daft.punk" }),
    displayName: DisplayNameOut,
    bio: z.string().openapi({ example: "French electronic duo." }),
    avatar: MediaPath,
    backgroundImage: MediaPath,
    createdAt: Timestamp,
  })
  .openapi("Artist", {
    description: "A public artist profile. Never carries the email or password.",
  });

export const ArtistWithViewerDto = ArtistDto.extend({
  _count: z
    .object({
      followers: z.number().int().openapi({ description: "Listeners who follow the artist." }),
      likes: z.number().int().openapi({ description: "Listeners who like the artist." }),
    })
    .openapi({
      description:
        "Counted with the profile. An anonymous answer may come from the edge cache, so its counts may be up to a minute old; a signed-in caller's are read fresh.",
    }),
  viewer: z
    .object({
      following: z.boolean().openapi({ description: "Whether the caller follows the artist." }),
      liked: z.boolean().openapi({ description: "Whether the caller likes the artist." }),
    })
    .optional()
    .openapi({
      description:
        "The caller's own relation to the artist. Present only when the caller is a signed-in user (listener); absent for anonymous callers and for artists.",
    }),
}).openapi("ArtistWithViewer", {
  description:
    "A public artist profile with its follower and like counts, and the signed-in listener's own relation to the artist (`viewer`). Never carries the email or password.",
});

export type ArtistWithViewerOut = z.infer<typeof ArtistWithViewerDto>;

export const ArtistListItemDto = ArtistDto.extend({
  _count: z.object({ followers: z.number().int() }),
}).openapi("ArtistListItem");

export const Bio = z
  .string()
  .max(1000, "at most 1000 characters")
  .openapi({ example: "French electronic duo." });

export const ArtistUpdateJson = z
  .object({
    username: Username.optional(),
    displayName: DisplayName.nullable().optional(),
    bio: Bio.optional(),
  })
  .openapi("ArtistUpdate");

export const ArtistUpdateForm = z
  .object({
    username: Username.optional(),
    // A form field cannot be null: an empty value removes the display name.
    displayName: z
      .union([z.literal("").transform(() => null), DisplayName])
      .optional()
      .openapi({ type: "string", description: "An empty value removes the display name." }),
    bio: Bio.optional(),
    avatar: z
      .any()
      .optional()
      .openapi({ type: "string", format: "binary", description: "PNG, JPEG or WebP, ≤ 5 MB." }),
    backgroundImage: z
      .any()
      .optional()
      .openapi({ type: "string", format: "binary", description: "PNG, JPEG or WebP, ≤ 5 MB." }),
  })
  .openapi("ArtistUpdateForm");

export const UsernameParams = z.object({
  username: z
    .string()
    .max(30)
    .openapi({ param: { name: "username", in: "path" }, example: "daft.punk" }),
});

export const ArtistIdParams = z.object({ id: uuidParam("id") });
