import { z } from "@hono/zod-openapi";
import { AUDIO_CONTENT_TYPES } from "../../../file-input/audio.ts";
import { Timestamp, uuidParam } from "../../../validation/common.ts";
import { Visibility } from "../../sharing/schema.ts";
import { Title } from "../catalogue/schema.ts";

/** S3 and R2 take at most 10,000 parts, each at least 5 MiB but the last. */
export const MAX_PARTS = 10_000;
const MIB = 1024 * 1024;
/**
 * Parts of 8 MiB, or larger when a file would need more than MAX_PARTS of them (files above 10,000 × 8 MiB).
 * MAX_DIRECT_UPLOAD_BYTES is at most 50 GiB, so parts are 8 MiB: a part sent through the Worker
 * stays far under the platform's 100 MB request cap (reached only by files of ~900 GiB).
 */
export const partSizeFor = (size: number) =>
  Math.max(8 * MIB, Math.ceil(size / MAX_PARTS / MIB) * MIB);

/** How many parts a file of `size` bytes is sent in. */
export const partCount = (size: number) => Math.ceil(size / partSizeFor(size));

/** Bytes of part `partNumber` (1-based) of a file of `size` bytes, or null past its last part. */
export function partLength(size: number, partNumber: number): number | null {
  const partSize = partSizeFor(size);
  const from = (partNumber - 1) * partSize;
  if (partNumber < 1 || from >= size) return null;
  return Math.min(partSize, size - from);
}

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
    visibility: Visibility.optional().openapi({
      description:
        "Who may reach the track once made (ADR 0025): `public` (the default), `unlisted` or `private`.",
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
            "PUT the part's bytes here (no other header needed; its Content-Length, which clients set from the body, is signed: another length is refused); keep the ETag header of the answer.",
        }),
      }),
    ),
    expiresAt: Timestamp.openapi({
      description: "The part URLs stop working, and the upload is aborted, after this.",
    }),
  })
  .openapi("DirectUpload");

export const PartParams = z.object({
  uploadId: uuidParam("uploadId"),
  partNumber: z.coerce
    .number()
    .int()
    .min(1)
    .max(MAX_PARTS)
    .openapi({
      param: { name: "partNumber", in: "path" },
      description: "1 to the upload's part count (else 400).",
      example: 1,
    }),
});

export const UploadedPartDto = z
  .object({
    partNumber: z.number().int().min(1),
    etag: z.string().openapi({
      description: "Storage's ETag of the part: send it with the part number to complete.",
      example: '"5d41402abc4b2a76b9719d911017c592"',
    }),
  })
  .openapi("UploadedPart");

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
