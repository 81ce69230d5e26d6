import { describe, expect, test } from "vitest";
import { appendNew, nextPages, Paging } from "../src/ui/paging.ts";

describe("reading a list a page at a time", () => {
  test("without removals, more is the next page alone", () => {
    expect(nextPages(1, 0, 20)).toEqual([2]);
    expect(nextPages(3, 0, 20)).toEqual([4]);
  });

  test("after removals, it reads again from where the next rows moved up to", () => {
    expect(nextPages(1, 1, 20)).toEqual([1, 2]);
    expect(nextPages(3, 20, 20)).toEqual([3, 4]);
    expect(nextPages(3, 21, 20)).toEqual([2, 3, 4]);
    expect(nextPages(2, 100, 20)).toEqual([1, 2, 3]);
  });

  test("a read settles the removals before it: the next read is the next page alone", () => {
    const paging = new Paging<string>(2, (id) => id);
    paging.started();
    paging.ended();
    const plan = paging.plan();
    expect(plan.pages).toEqual([1, 2]);
    expect(
      paging.merge(
        ["a"],
        [
          ["a", "c"],
          ["d", "e"],
        ],
        plan,
      )?.rows,
    ).toEqual(["a", "c", "d", "e"]);
    expect(paging.plan().pages).toEqual([3]);
  });

  test("a read is stale when a removal starts during it, and is not planned while one is under way", () => {
    const paging = new Paging<string>(2, (id) => id);
    const plan = paging.plan();
    paging.started();
    expect(paging.merge(["a", "b"], [["c", "d"]], plan)).toBeNull();
    expect(() => paging.plan()).toThrow(/under way/);
    paging.ended();
    expect(paging.plan().pages).toEqual([1, 2]);
  });

  test("appendNew keeps the first place of a key and drops the rows read twice", () => {
    const key = (row: { id: string }) => row.id;
    const rows = (ids: string) => [...ids].map((id) => ({ id }));
    expect(appendNew(rows("abc"), rows("cde"), key)).toEqual(rows("abcde"));
    expect(appendNew(rows("ab"), rows("cc"), key)).toEqual(rows("abc"));
    expect(appendNew([], rows("a"), key)).toEqual(rows("a"));
  });

  /**
   * A server's list, its pages, and a reader that removes rows (a removal: the page starts it,
   * the server deletes the row or the request fails, the page hears back) between reads and while
   * a read is under way (the pages are separate requests: steps may land between any two), at
   * random. As usePaged, a read is planned only once no removal is under way.
   */
  test("shows every row once, in order, whatever rows are removed between and during reads", () => {
    let seed = 7;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    const pick = <T>(list: T[]) => list[Math.floor(random() * list.length)];
    for (let round = 0; round < 300; round++) {
      const size = 1 + Math.floor(random() * 5);
      let server = Array.from({ length: Math.floor(random() * 30) }, (_, i) => `r${i}`);
      const page = (n: number) => server.slice((n - 1) * size, n * size);
      const paging = new Paging<string>(size, (id) => id);
      let shown = page(1);
      /** The row being removed, from its start until the page hears back. */
      let removing: string | undefined;
      /** The steps of removing a shown row, to run in order; one in ten fails. */
      const removal = (): Array<() => void> => {
        const key = pick(shown);
        if (key === undefined) return [];
        const fails = random() < 0.1;
        removing = key;
        return [
          () => paging.started(),
          () => {
            if (!fails) server = server.filter((id) => id !== key);
          },
          () => {
            paging.ended();
            removing = undefined;
            if (!fails) shown = shown.filter((id) => id !== key);
          },
        ];
      };
      let steps: Array<() => void> = [];
      const some = () => {
        for (let n = Math.floor(random() * 3); n > 0; n--) steps.shift()?.();
      };
      for (let step = 0; step < 40; step++) {
        if (steps.length === 0 && random() < 0.5) steps = removal();
        if (random() < 0.3) {
          some();
        } else {
          // A read for more: after the removal under way, if any; again if one starts meanwhile.
          for (;;) {
            some();
            while (paging.removing) steps.shift()?.();
            const plan = paging.plan();
            if (steps.length === 0 && random() < 0.5) steps = removal();
            const answers = plan.pages.map((n) => {
              some();
              return page(n);
            });
            some();
            const merged = paging.merge(shown, answers, plan);
            if (merged) {
              shown = merged.rows;
              break;
            }
          }
        }
        // What is shown is always the server's list from its start, nothing skipped or doubled;
        // the only row shown that the server no longer has is one whose removal is under way.
        const live = shown.filter((id) => server.includes(id));
        expect(live).toEqual(server.slice(0, live.length));
        expect(shown.filter((id) => !server.includes(id) && id !== removing)).toEqual([]);
        expect(new Set(shown).size).toBe(shown.length);
      }
    }
  });
});
