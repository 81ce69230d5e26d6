import { publishTrackState, type TrackState } from "@edge-music/contracts";
import type { Cluster, Redis } from "ioredis";
import { log } from "../log.ts";

/** Tells listeners of a track (the Worker's event stream) its new state. */
export interface TrackEvents {
  /** Never throws: a state not published is logged; the conversion goes on. */
  publish(trackId: string, state: TrackState): Promise<void>;
}

/** Appends to the track's Redis stream (contracts' track-events) over `redis`. */
export function trackEvents(redis: Redis | Cluster): TrackEvents {
  return {
    async publish(trackId, state) {
      try {
        await publishTrackState(redis, trackId, state);
      } catch (error) {
        log.warn("track state not published", { trackId, error: (error as Error).message });
      }
    },
  };
}
