import { describe, expect, test } from "vitest";
import {
  afterEnd,
  appended,
  artistName,
  cleared,
  downsample,
  gainFactor,
  moved,
  nextIndex,
  nextRepeat,
  previousTarget,
  type QueueItem,
  type QueueState,
  qualityLabel,
  RESTART_AFTER_SECONDS,
  removed,
  replaced,
  shuffled,
  unshuffled,
} from "../src/player/queue.ts";

const item = (id: string): QueueItem => ({
  id,
  title: `Track ${id}`,
  artist: null,
  cover: null,
  duration: 60,
});
const ids = (state: QueueState) => state.items.map((i) => i.id);
const queueOf = (names: string, index: number): QueueState => ({
  items: [...names].map(item),
  index,
  ranks: null,
});
/** A repeatable random source (a linear congruential generator) for the shuffle's tests. */
function seeded(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

describe("the queue's rules", () => {
  test("next goes one on and stops after the last", () => {
    expect(nextIndex(0, 3)).toBe(1);
    expect(nextIndex(2, 3)).toBeNull();
    expect(nextIndex(-1, 0)).toBeNull();
  });

  test("previous restarts a track that has played a while, else goes one back", () => {
    expect(previousTarget(2, RESTART_AFTER_SECONDS + 1)).toEqual({ index: 2, restart: true });
    expect(previousTarget(2, 1)).toEqual({ index: 1, restart: false });
    expect(previousTarget(0, 1)).toEqual({ index: 0, restart: true });
    expect(previousTarget(-1, 0)).toBeNull();
  });

  test("repeat all wraps at either end; repeat one loops the track when it ends", () => {
    expect(nextIndex(2, 3, "all")).toBe(0);
    expect(nextIndex(2, 3, "one")).toBe(0);
    expect(nextIndex(0, 0, "all")).toBeNull();
    expect(afterEnd(2, 3, "off")).toBeNull();
    expect(afterEnd(1, 3, "off")).toBe(2);
    expect(afterEnd(2, 3, "all")).toBe(0);
    expect(afterEnd(1, 3, "one")).toBe(1);
    expect(afterEnd(-1, 0, "one")).toBeNull();
    expect(previousTarget(0, 1, 3, "all")).toEqual({ index: 2, restart: false });
    expect(previousTarget(0, 1, 1, "all")).toEqual({ index: 0, restart: true });
    expect(previousTarget(0, 1, 3, "one")).toEqual({ index: 0, restart: true });
  });

  test("the repeat button goes off, all, one, off", () => {
    expect(nextRepeat("off")).toBe("all");
    expect(nextRepeat("all")).toBe("one");
    expect(nextRepeat("one")).toBe("off");
  });

  test("an artist shows by the display name when there is one", () => {
    expect(artistName({ username: "dj_a", displayName: "DJ A" })).toBe("DJ A");
    expect(artistName({ username: "dj_a", displayName: null })).toBe("dj_a");
    expect(artistName({ username: "dj_a" })).toBe("dj_a");
  });
});

describe("shuffle", () => {
  test("keeps the track playing first and every other entry exactly once", () => {
    const state = queueOf("abcdefgh", 3);
    for (let seed = 1; seed <= 50; seed++) {
      const next = shuffled(state, seeded(seed));
      expect(next.index).toBe(0);
      expect(ids(next)[0]).toBe("d");
      expect([...ids(next)].sort()).toEqual([..."abcdefgh"]);
    }
  });

  test("is uniform over the orders of the rest (Fisher–Yates, not a biased sort)", () => {
    // 3 entries after the current one: 6 orders, each about 1/6 of 6,000 shuffles.
    const counts = new Map<string, number>();
    const random = seeded(42);
    for (let n = 0; n < 6000; n++) {
      const order = ids(shuffled(queueOf("xabc", 0), random)).join("");
      counts.set(order, (counts.get(order) ?? 0) + 1);
    }
    expect(counts.size).toBe(6);
    for (const count of counts.values()) expect(Math.abs(count - 1000)).toBeLessThan(150);
  });

  test("with nothing playing shuffles the whole queue", () => {
    const next = shuffled(queueOf("abcd", -1), seeded(7));
    expect(next.index).toBe(-1);
    expect([...ids(next)].sort()).toEqual([..."abcd"]);
  });

  test("turned off puts back the order from before, the current entry followed", () => {
    const state = queueOf("abcdef", 2);
    const back = unshuffled(shuffled(state, seeded(3)));
    expect(back).toEqual(state);
    // Shuffled twice: still the first order.
    expect(unshuffled(shuffled(shuffled(state, seeded(4)), seeded(5)))).toEqual(state);
  });

  test("entries added, moved or removed while shuffled: off keeps the first order of the rest", () => {
    let state = shuffled(queueOf("abcde", 0), seeded(9));
    state = appended(state, [item("f")]);
    expect(ids(state).at(-1)).toBe("f");
    state = removed(state, ids(state).indexOf("c"));
    state = moved(state, ids(state).indexOf("e"), 1);
    const back = unshuffled(state);
    expect(ids(back)).toEqual([..."abdef"]);
    expect(back.index).toBe(0);
    expect(back.ranks).toBeNull();
  });

  test("a new list plays shuffled when shuffle is on, its start first", () => {
    const on = shuffled(queueOf("ab", 0), seeded(1));
    const next = replaced(on, [..."pqrs"].map(item), 2, seeded(2));
    expect(ids(next)[0]).toBe("r");
    expect(next.ranks).not.toBeNull();
    expect(ids(unshuffled(next))).toEqual([..."pqrs"]);
    expect(replaced(queueOf("ab", 0), [..."pq"].map(item), 1)).toEqual(queueOf("pq", 1));
  });
});

describe("the queue's edits", () => {
  test("a move takes the entry to its new place; the current entry is followed", () => {
    expect(moved(queueOf("abcd", 1), 3, 0)).toEqual(queueOf("dabc", 2));
    expect(moved(queueOf("abcd", 1), 1, 3)).toEqual(queueOf("acdb", 3));
    expect(moved(queueOf("abcd", 1), 0, 1)).toEqual(queueOf("bacd", 0));
    const same = queueOf("ab", 0);
    expect(moved(same, 0, 2)).toBe(same);
    expect(moved(same, -1, 0)).toBe(same);
  });

  test("removing an entry keeps the current one; the current one cannot be removed", () => {
    expect(removed(queueOf("abcd", 2), 0)).toEqual(queueOf("bcd", 1));
    expect(removed(queueOf("abcd", 2), 3)).toEqual(queueOf("abc", 2));
    const same = queueOf("abcd", 2);
    expect(removed(same, 2)).toBe(same);
  });

  test("clear leaves the entry playing alone, or nothing", () => {
    expect(cleared(queueOf("abcd", 2))).toEqual(queueOf("c", 0));
    expect(cleared(queueOf("abcd", -1))).toEqual(queueOf("", -1));
    const shuffledQueue = cleared(shuffled(queueOf("abcd", 1), seeded(1)));
    expect(ids(shuffledQueue)).toEqual(["b"]);
    expect(shuffledQueue.ranks).toEqual([1]);
  });

  test("entries added go last, without changing what plays", () => {
    expect(appended(queueOf("ab", 0), [item("c")])).toEqual(queueOf("abc", 0));
    expect(appended(queueOf("", -1), [item("c")])).toEqual(queueOf("c", -1));
  });
});

describe("loudness and quality", () => {
  test("the gain in dB becomes a linear factor; none when unknown", () => {
    expect(gainFactor(0)).toBe(1);
    expect(gainFactor(-6)).toBeCloseTo(0.501, 3);
    expect(gainFactor(3)).toBeCloseTo(1.413, 3);
    expect(gainFactor(null)).toBe(1);
    expect(gainFactor(undefined)).toBe(1);
    expect(gainFactor(Number.NaN)).toBe(1);
  });

  test("a bitrate reads as kbps", () => {
    expect(qualityLabel(196_000)).toBe("196 kbps");
    expect(qualityLabel(127_600)).toBe("128 kbps");
    expect(qualityLabel(undefined)).toBeNull();
  });
});

describe("the waveform's bars", () => {
  test("keeps the highest peak of each slice", () => {
    expect(downsample([0.1, 0.9, 0.2, 0.3, 0.5, 0.4], 3)).toEqual([0.9, 0.3, 0.5]);
    expect(downsample([0.1, 0.2], 5)).toEqual([0.1, 0.2]);
    expect(downsample([], 5)).toEqual([]);
    expect(downsample([0.5], 0)).toEqual([]);
  });

  test("makes exactly the bars asked for from 2,000 points, covering them all", () => {
    const points = Array.from({ length: 2000 }, (_, i) => (i === 1999 ? 1 : 0.1));
    const bars = downsample(points, 160);
    expect(bars).toHaveLength(160);
    expect(bars.at(-1)).toBe(1);
    expect(Math.max(...bars.slice(0, -1))).toBe(0.1);
  });
});
