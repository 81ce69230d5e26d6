import { describe, expect, test } from "vitest";
import type { components } from "../src/api.ts";
import type { QueueItem } from "../src/player/queue.ts";
import { similarToAdd } from "../src/player/similar.ts";

const track = (id: string, gainDb: number | null = null) =>
  ({
    id,
    title: `Title ${id}`,
    cover: null,
    duration: 20,
    artistId: "a1",
    artist: { id: "a1", username: "luna", displayName: "Luna" },
    loudness: { integratedLufs: -14, truePeakDbtp: null, gainDb },
  }) as unknown as components["schemas"]["Track"];

const queued = (id: string): QueueItem => ({
  id,
  title: id,
  artist: null,
  cover: null,
  duration: 20,
});

describe("similar tracks added when the queue ends", () => {
  test("those not in the queue yet, once each, in the API's order, ready to play", () => {
    const added = similarToAdd([track("b", -2), track("a"), track("c"), track("b")], [queued("a")]);
    expect(added.map((item) => item.id)).toEqual(["b", "c"]);
    expect(added[0]).toEqual({
      id: "b",
      title: "Title b",
      cover: null,
      duration: 20,
      artist: { id: "a1", username: "luna", displayName: "Luna" },
      gainDb: -2,
    });
  });

  test("nothing when every related track is queued already", () => {
    expect(similarToAdd([track("a")], [queued("a")])).toEqual([]);
  });
});
