import { describe, expect, test } from "vitest";
import { appendNew, nextPages, Paging } from "../src/ui/paged.tsx";

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

  test("appendNew keeps the first place of a key and drops the rows read twice", () => {
    const key = (row: { id: string }) => row.id;
    const rows = (ids: string) => [...ids].map((id) => ({ id }));
    expect(appendNew(rows("abc"), rows("cde"), key)).toEqual(rows("abcde"));
    expect(appendNew(rows("ab"), rows("cc"), key)).toEqual(rows("abc"));
    expect(appendNew([], rows("a"), key)).toEqual(rows("a"));
  });

  /**
   * A server's list, its pages, and a reader that removes rows (a removal: the page starts it,
   * the server deletes the row, the page hears back) between reads and while a read is under way,
   * the read landing anywhere among those steps, at random.
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
      /** The three steps of removing a shown row, to run in order. */
      const removal = (): Array<() => void> => {
        const key = pick(shown);
        if (key === undefined) return [];
        return [
          () => paging.removing(),
          () => {
            server = server.filter((id) => id !== key);
          },
          () => {
            paging.gone(key);
            shown = shown.filter((id) => id !== key);
          },
        ];
      };
      for (let step = 0; step < 40; step++) {
        const steps = random() < 0.5 ? removal() : [];
        if (random() < 0.3) {
          for (const run of steps) run();
        } else {
          // A read for more, as usePaged's loadMore: again while a removal started meanwhile.
          for (;;) {
            for (let n = Math.floor(random() * 3); n > 0; n--) steps.shift()?.();
            const plan = paging.plan();
            for (let n = Math.floor(random() * 3); n > 0; n--) steps.shift()?.();
            const answers = plan.pages.map(page);
            // The answers are on their way back while the removal goes on.
            for (let n = Math.floor(random() * 3); n > 0; n--) steps.shift()?.();
            const merged = paging.merge(shown, answers, plan);
            if (merged) {
              shown = merged.rows;
              break;
            }
          }
          for (const run of steps) run();
        }
        // What is shown is always the server's list from its start, nothing skipped or doubled.
        expect(shown).toEqual(server.slice(0, shown.length));
      }
    }
  });
});
