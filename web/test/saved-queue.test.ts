import { describe, expect, test } from "vitest";
import type { QueueItem } from "../src/player/queue.ts";
import {
  decodeQueue,
  encodeQueue,
  SAVED_ITEMS_MAX,
  type SavedQueue,
  serverCopyWins,
  windowStart,
} from "../src/player/saved-queue.ts";

const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, "0")}`;
const item = (n: number, more: Partial<QueueItem> = {}): QueueItem => ({
  id: uuid(n),
  title: `Track ${n}`,
  artist: { id: uuid(9000 + n), username: `artist_${n}` },
  cover: `/static/covers/${n}.webp`,
  duration: 180,
  ...more,
});
const saved = (items: QueueItem[], more: Partial<SavedQueue> = {}): SavedQueue => ({
  items,
  index: 0,
  ranks: null,
  position: 42.5,
  repeat: "all",
  savedAt: 1_750_000_000_000,
  ...more,
});
/** The stored JSON of `queue` with one change made by hand (as a corrupt value would be). */
const edited = (queue: SavedQueue, edit: (raw: Record<string, unknown>) => void) => {
  const raw = JSON.parse(encodeQueue(queue)) as Record<string, unknown>;
  edit(raw);
  return JSON.stringify(raw);
};

describe("the saved queue", () => {
  test("reads back what was saved: entries, current, position, shuffle, repeat", () => {
    const queue = saved([item(1, { gainDb: -3.5 }), item(2, { gainDb: null }), item(3)], {
      index: 1,
      ranks: [2, 0, 1],
    });
    const back = decodeQueue(encodeQueue(queue));
    expect(back).toEqual(queue);
    // Unknown loudness stays unknown (the player reads it), none measured stays none.
    expect(back?.items[2]).not.toHaveProperty("gainDb");
    expect(back?.items[1]?.gainDb).toBeNull();
  });

  test("keeps the artist's display name when there is one", () => {
    const named = item(1, { artist: { id: uuid(5), username: "dj_a", displayName: "DJ A" } });
    expect(decodeQueue(encodeQueue(saved([named])))?.items[0]?.artist).toEqual({
      id: uuid(5),
      username: "dj_a",
      displayName: "DJ A",
    });
  });

  test("nothing, or anything that is not a saved queue, reads as none", () => {
    for (const text of [
      null,
      "",
      "{",
      "null",
      "[]",
      '"queue"',
      "42",
      JSON.stringify({ v: 2, items: [] }),
      JSON.stringify({ v: 1, items: "many" }),
      "x".repeat(2_000_000),
    ]) {
      expect(decodeQueue(text), String(text).slice(0, 40)).toBeNull();
    }
  });

  test("a bad entry is dropped and the others kept; the current one dropped starts again", () => {
    const queue = saved([item(1), item(2), item(3)], { index: 2, position: 30 });
    const badOther = edited(queue, (raw) => {
      (raw.items as Record<string, unknown>[])[0] = { id: "../../etc", title: "x" };
    });
    const back = decodeQueue(badOther);
    expect(back?.items.map((i) => i.title)).toEqual(["Track 2", "Track 3"]);
    expect(back?.index).toBe(1);
    expect(back?.position).toBe(30);

    const badCurrent = edited(queue, (raw) => {
      (raw.items as Record<string, unknown>[])[2] = { ...item(3), duration: "long" };
    });
    expect(decodeQueue(badCurrent)).toMatchObject({ index: 0, position: 0 });
  });

  test("each field is checked: ids, text, media paths, numbers", () => {
    const bad: Partial<Record<keyof QueueItem, unknown>>[] = [
      { id: 7 },
      { id: "not-a-uuid" },
      { title: "" },
      { title: "t".repeat(501) },
      { title: { toString: "x" } },
      { cover: "javascript:alert(1)" },
      { cover: "//elsewhere.example/cover.png" },
      { cover: "https://elsewhere.example/cover.png" },
      { duration: -1 },
      { duration: 1e9 },
      { gainDb: "loud" },
      { gainDb: 1e6 },
      { artist: { id: uuid(1) } },
      { artist: "someone" },
    ];
    for (const change of bad) {
      const text = edited(saved([item(1), item(2)]), (raw) => {
        const items = raw.items as Record<string, unknown>[];
        items[1] = { ...items[1], ...change };
      });
      expect(decodeQueue(text)?.items, JSON.stringify(change)).toHaveLength(1);
    }
  });

  test("a bad index, position, ranks or repeat falls back to a safe value", () => {
    const queue = saved([item(1), item(2)], { index: 1, ranks: [1, 0] });
    const cases: [Record<string, unknown>, Partial<SavedQueue>][] = [
      [{ index: 5 }, { index: -1 }],
      [{ index: "1" }, { index: -1 }],
      [{ index: 0.5 }, { index: -1 }],
      [{ position: -3 }, { position: 0 }],
      [{ position: Number.MAX_VALUE }, { position: 0 }],
      [{ ranks: [1] }, { ranks: null }],
      [{ ranks: [1, "0"] }, { ranks: null }],
      [{ ranks: "shuffled" }, { ranks: null }],
      [{ repeat: "always" }, { repeat: "off" }],
      [{ savedAt: "yesterday" }, { savedAt: 0 }],
    ];
    for (const [change, expected] of cases) {
      const text = edited(queue, (raw) => Object.assign(raw, change));
      expect(decodeQueue(text), JSON.stringify(change)).toMatchObject(expected);
    }
  });

  test(`keeps at most ${SAVED_ITEMS_MAX} entries, the current one and most of those after it`, () => {
    const items = Array.from({ length: SAVED_ITEMS_MAX + 300 }, (_, n) => item(n));
    // 50 before the current entry, the rest after it.
    const back = decodeQueue(encodeQueue(saved(items, { index: 200 })));
    expect(back?.items).toHaveLength(SAVED_ITEMS_MAX);
    expect(back?.items[back.index]?.id).toBe(uuid(200));
    expect(back?.index).toBe(50);
    const end = decodeQueue(encodeQueue(saved(items, { index: items.length - 1 })));
    expect(end?.items.at(-1)?.id).toBe(uuid(items.length - 1));
    expect(end?.items[end.index]?.id).toBe(uuid(items.length - 1));
  });
});

describe("the server's copy of the queue", () => {
  const at = (iso: string) => Date.parse(iso);
  const server = { changedAt: "2026-05-01T10:00:00.000Z", changedBy: "web bbbbbbbb", tracks: 3 };
  const here = { acted: false, entries: 2, changedAt: at("2026-05-01T09:00:00.000Z") };
  const me = "web aaaaaaaa";

  test("replaces an empty queue here, or an older one saved by another browser", () => {
    expect(serverCopyWins(server, { ...here, entries: 0 }, me)).toBe(true);
    expect(serverCopyWins(server, here, me)).toBe(true);
  });

  test("never replaces what the listener did in this page, nor a newer queue, nor its own", () => {
    expect(serverCopyWins(server, { ...here, acted: true }, me)).toBe(false);
    expect(serverCopyWins(server, { ...here, changedAt: at("2026-05-01T11:00:00.000Z") }, me)).toBe(
      false,
    );
    expect(serverCopyWins({ ...server, changedBy: me }, here, me)).toBe(false);
  });

  test("an empty or never saved copy replaces nothing", () => {
    expect(serverCopyWins({ ...server, tracks: 0 }, { ...here, entries: 0 }, me)).toBe(false);
    expect(serverCopyWins({ ...server, changedAt: null }, { ...here, entries: 0 }, me)).toBe(false);
  });

  test("a copy of a long queue keeps 50 entries before the current one and the rest after", () => {
    expect(windowStart(10, 5, 1000)).toBe(0);
    expect(windowStart(3000, 200, 1000)).toBe(150);
    expect(windowStart(3000, 2990, 1000)).toBe(2000);
    expect(windowStart(3000, -1, 1000)).toBe(0);
  });
});
