import { z } from "@hono/zod-openapi";
import { AUDIO_CONTENT_TYPES } from "../../file-input/audio.ts";
import { Timestamp } from "../../validation/common.ts";
import { Title } from "../tracks/catalogue/schema.ts";

/** S3 and R2 take at most 10,000 parts, each at least 5 MiB but the last. */
export const MAX_PARTS = 10_000;
const MIB = 1024 * 1024;
/** Parts of 8 MiB, or larger when a file would need more than MAX_PARTS of them. */
export const partSizeFor = (size: number) =>
  Math.max(8 * MIB, Math.ceil(size / MAX_PARTS / MIB) * MIB);

export const DECLARED_TYPES = [...new Set(Object.values(AUDIO_CONTENT_TYPES))].concat([
  "audio/mp3",
  "audio/x-wav",
  "audio/wave",
  "audio/x-flac",
  "audio/x-m4a",
  "audio/opus",
]);

export const StartUploadBody = z
  .object({
    title: Title,
    filename: z.string().trim().min(1).max(255).openapi({ example: "Neon Rain (master).wav" }),
    contentType: z
      .string()
      .trim()
      .toLowerCase()
      .openapi({
        example: "audio/wav",
        description: `The file's type as the client knows it: ${DECLARED_TYPES.join(", ")} (else 415). The stored file's bytes are checked again before conversion.`,
      }),
    size: z.number().int().min(1).openapi({ description: "Bytes.", example: 734003200 }),
    albumId: z.uuid().toLowerCase().optional().openapi({
      description: "One of the caller's albums (else 404).",
    }),
  })
  .openapi("DirectUploadRequest");

export const DirectUploadDto = z
  .object({
    uploadId: z.uuid().openapi({ description: "Also the id of the track it will make." }),
    partSize: z.number().int().openapi({
      description: "Bytes of every part but the last, which holds the rest.",
      example: 8388608,
    }),
    parts: z.array(
      z.object({
        partNumber: z.number().int().min(1),
        url: z.string().openapi({
          description:
            "PUT the part's bytes here (no other header needed); keep the ETag header of the answer.",
        }),
      }),
    ),
    expiresAt: Timestamp.openapi({
      description: "The part URLs stop working, and the upload is aborted, after this.",
    }),
  })
  .openapi("DirectUpload");

export const CompleteUploadBody = z
  .object({
    parts: z
      .array(
        z.object({
          partNumber: z.number().int().min(1).max(MAX_PARTS),
          etag: z.string().min(1).max(200),
        }),
      )
      .min(1)
      .max(MAX_PARTS)
      .refine(
        (parts) => parts.every((p, i) => i === 0 || p.partNumber > (parts[i - 1]?.partNumber ?? 0)),
        "part numbers must ascend without repeats",
      ),
  })
  .openapi("CompleteUploadRequest");
