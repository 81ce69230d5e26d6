import { z } from "@hono/zod-openapi";
import { MediaPath, PageQuery, Timestamp } from "../../../validation/common.ts";
import { DisplayNameOut } from "../../auth/schema.ts";
import { Visibility } from "../../sharing/schema.ts";

const Uuid = z.uuid().openapi({ example: "0195f3a4-8c1e-7d2a-9b3c-4d5e6f708192" });

/** Titles of tracks and albums: trimmed, then 1–200 characters. */
export const Title = z
  .string()
  .trim()
  .min(1, "must not be empty")
  .max(200, "at most 200 characters")
  .openapi({ example: "Neon Rain" });

/** An image field of a multipart body; readImage checks it (a file, ≤ 5 MB, an image by its bytes). */
export const CoverFile = z.any().optional().openapi({
  type: "string",
  format: "binary",
  description: "PNG, JPEG or WebP (recognised by its bytes), at most 5 MB.",
});

export const TrackArtistDto = z
  .object({
    id: Uuid,
    username: z.string().openapi({ example: "nightdrive" }),
    displayName: DisplayNameOut,
    avatar: MediaPath,
  })
  .openapi("TrackArtist");

export const TrackAlbumDto = z
  .object({ id: Uuid, title: z.string().openapi({ example: "Night Drive" }) })
  .openapi("TrackAlbum");

export const TrackDto = z
  .object({
    id: Uuid,
    title: z.string().openapi({ example: "Neon Rain" }),
    cover: MediaPath,
    duration: z.number().nullable().openapi({
      description: "Seconds; null until the converter has measured the upload.",
      example: 215.5,
    }),
    artistId: Uuid,
    albumId: Uuid.nullable().openapi({ description: "Null for a single." }),
    album: TrackAlbumDto.nullable().openapi({
      description: "The album it is on; null for a single.",
    }),
    albumPosition: z.number().int().min(1).nullable().openapi({
      description:
        "Its place in the album (1, 2, …; the artist may reorder them); null for a single. Two tracks added to an album at the same moment may share a place.",
      example: 3,
    }),
    artist: TrackArtistDto,
    loudness: z
      .object({
        integratedLufs: z.number().openapi({ example: -9.8 }),
        truePeakDbtp: z.number().nullable().openapi({ example: -0.4 }),
        gainDb: z.number().nullable().openapi({
          example: -4.2,
          description:
            "The gain to apply for −14 LUFS, capped so that the true peak stays at or below −1 dBTP, rounded down to 0.1 dB; also in the HLS master as `#EXT-X-SESSION-DATA` `com.edge-music.gain`. Null when nothing could be measured.",
        }),
      })
      .nullable()
      .openapi({
        description:
          "EBU R128 integrated loudness and true peak of what is streamed (the stereo mix), measured during conversion, so that players can normalise volume; null until measured or for silence.",
      }),
    plays: z.number().int().min(0).openapi({
      description:
        "How many times it was played: reports of at least 30 s heard (or the whole of a shorter track), the same listener (or network) once per 10 minutes. Counted by a queue within seconds of the report (ADR 0028).",
      example: 1234,
    }),
    createdAt: Timestamp,
  })
  .openapi("Track", {
    description:
      "A track as everyone sees it. Only READY tracks are shown to anyone but the owner.",
  });

export const ProcessingStatus = z
  .enum(["PROCESSING", "READY", "FAILED"])
  .openapi("ProcessingStatus", {
    description:
      "PROCESSING: the conversion job is queued or running. READY: streaming is available. FAILED: all 5 attempts failed.",
  });

export const OwnTrackDto = TrackDto.extend({
  visibility: Visibility,
  processingStatus: ProcessingStatus,
  processingError: z.string().nullable().openapi({
    description: "What went wrong in the last failed conversion attempt; null otherwise.",
  }),
  sourceUnreadable: z.boolean().openapi({
    description:
      "The last conversion failed for good because of the file itself (not decodable as audio, no audio stream, too long): POST /tracks/{id}/retry is refused; upload another file.",
  }),
  processingAttempts: z.number().int().openapi({ example: 1 }),
  processingStartedAt: Timestamp.nullable(),
  processingFinishedAt: Timestamp.nullable(),
  processingProgress: z.number().int().min(0).max(100).openapi({
    description: "0–100 while PROCESSING (updated every few seconds), 100 once READY.",
    example: 40,
  }),
}).openapi("OwnTrack", {
  description:
    "A track as its owning artist sees it: the public fields plus the conversion state. Never the uploaded source's storage key.",
});

export const SignedStreamDto = z
  .object({
    master: z.string().openapi({
      description:
        "The HLS master playlist's path with the signature; its playlists name their files with it.",
      example:
        "/api/v1/tracks/stream/0195f3a4-8c1e-7d2a-9b3c-4d5e6f708192/hls/master.m3u8?exp=1795000000&sig=q0Vb4nX2y8mO1cJ6rT9wZ3kL5hF7dS0aE2gU4iP6oY8",
    }),
    query: z.string().openapi({
      description:
        "The signature as a query string, for the track's other files (`/hls/{bitrate}/{file}`, `/audio/{bitrate}.opus`, `/waveform`).",
      example: "exp=1795000000&sig=q0Vb4nX2y8mO1cJ6rT9wZ3kL5hF7dS0aE2gU4iP6oY8",
    }),
    expiresAt: Timestamp.openapi({
      description: "When the signed URLs stop working (read the track again for new ones).",
    }),
  })
  .openapi("SignedStream", {
    description:
      "Signed, expiring URLs of a track that is not public (ADR 0026), bound to its share key: rotating the key ends them.",
  });

export const SharedTrackDto = TrackDto.extend({
  visibility: Visibility,
  stream: SignedStreamDto,
}).openapi("SharedTrack", {
  description:
    "An unlisted track as the holder of its key sees it (GET /tracks/{id}?key=…): the public fields, its visibility, and signed URLs to stream it.",
});

export type TrackView = z.infer<typeof TrackDto>;
export type OwnTrackView = z.infer<typeof OwnTrackDto>;
export type SharedTrackView = z.infer<typeof SharedTrackDto>;

const filter = (name: string, description: string) =>
  z
    .uuid()
    .optional()
    .openapi({
      param: { name, in: "query" },
      description,
      example: "0195f3a4-8c1e-7d2a-9b3c-4d5e6f708192",
    });

export const TrackListQuery = PageQuery.extend({
  artistId: filter("artistId", "Only this artist's tracks."),
  albumId: filter("albumId", "Only this album's tracks."),
});

const AlbumRef = Uuid.nullable().openapi({
  description: "One of the caller's own albums, or null to make the track a single.",
});

export const TrackUpdateJson = z
  .object({
    title: Title.optional(),
    albumId: AlbumRef.optional(),
    visibility: Visibility.optional(),
  })
  .openapi("TrackUpdate");

export const TrackUpdateForm = z
  .object({
    title: Title.optional(),
    // A form field cannot be null: an empty value stands for null here.
    albumId: z
      .union([z.literal("").transform(() => null), z.uuid()])
      .optional()
      .openapi({
        type: "string",
        description: "One of the caller's own albums; an empty value makes the track a single.",
      }),
    visibility: Visibility.optional(),
    cover: CoverFile,
  })
  .openapi("TrackUpdateForm");
