import { z } from "@hono/zod-openapi";
import { MediaPath, Timestamp, uuidParam } from "../../validation/common.ts";
import { DisplayNameOut } from "../auth/schema.ts";

export const TrackIdParams = z.object({ trackId: uuidParam("trackId") });

const Uuid = z.uuid().openapi({ example: "0195f3a4-8c1e-7d2a-9b3c-4d5e6f708192" });

export const ListenDto = z
  .object({
    id: Uuid.openapi({ description: "UUIDv7: sorts by the time it was made." }),
    listenedAt: Timestamp,
  })
  .openapi("Listen");

const HistoryArtistDto = z
  .object({
    id: Uuid,
    username: z.string().openapi({ example: "nightdrive" }),
    displayName: DisplayNameOut,
    avatar: MediaPath,
  })
  .openapi("HistoryArtist");

const HistoryTrackDto = z
  .object({
    id: Uuid,
    title: z.string().openapi({ example: "Neon Rain" }),
    cover: MediaPath,
    duration: z.number().nullable().openapi({
      description: "Seconds; null while the converter has not measured it.",
      example: 215.5,
    }),
    artistId: Uuid,
    artist: HistoryArtistDto,
  })
  .openapi("HistoryTrack");

export const HistoryEntryDto = z
  .object({
    id: Uuid,
    userId: Uuid,
    trackId: Uuid,
    listenedAt: Timestamp,
    track: HistoryTrackDto,
  })
  .openapi("HistoryEntry");

export const HistoryPageDto = z.array(HistoryEntryDto).openapi("HistoryPage");

export const DeletedDto = z
  .object({
    deleted: z.number().int().min(0).openapi({
      description: "How many listens of the track were removed (0 when there were none).",
      example: 3,
    }),
  })
  .openapi("HistoryTrackDeleted");

export type Listen = z.infer<typeof ListenDto>;
export type HistoryEntry = z.infer<typeof HistoryEntryDto>;
