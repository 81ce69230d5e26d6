import { describe, expect, test } from "vitest";
import { appendNew, nextPages } from "../src/ui/paged.tsx";

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

  /** A server's list, its pages, and a reader that removes rows between reads, at random. */
  test("shows every row once, in order, whatever rows are removed between reads", () => {
    let seed = 7;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    for (let round = 0; round < 200; round++) {
      const size = 1 + Math.floor(random() * 5);
      let server = Array.from({ length: Math.floor(random() * 30) }, (_, i) => `r${i}`);
      const page = (n: number) => server.slice((n - 1) * size, n * size);
      let shown = page(1);
      let paging = { pages: 1, removed: 0 };
      for (let step = 0; step < 40; step++) {
        if (random() < 0.5 && shown.length > 0) {
          const gone = shown[Math.floor(random() * shown.length)];
          server = server.filter((id) => id !== gone);
          shown = shown.filter((id) => id !== gone);
          paging.removed += 1;
        } else {
          const answers = nextPages(paging.pages, paging.removed, size).map(page);
          shown = answers.reduce((all, rows) => appendNew(all, rows, (id) => id), shown);
          paging = { pages: paging.pages + 1, removed: 0 };
        }
        // What is shown is always the server's list from its start, nothing skipped.
        expect(shown).toEqual(server.slice(0, shown.length));
      }
    }
  });
});
