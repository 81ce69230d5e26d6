// The rules of a list read a page at a time while its rows may be removed (usePaged holds them):
// which pages to read for more, and how their answers join what is shown.

/**
 * The pages to read for "more" after `pages` pages were read and `removed` rows removed since:
 * the later rows moved up by as many, so the read starts that many rows earlier (in whole
 * pages); the rows it reads twice are dropped by key (`appendNew`).
 */
export function nextPages(pages: number, removed: number, size: number): number[] {
  const from = Math.max(1, pages + 1 - Math.ceil(removed / size));
  return Array.from({ length: pages + 2 - from }, (_, i) => from + i);
}

/** `shown`, then each row of `read` whose key `shown` does not hold yet (the first place wins). */
export function appendNew<T>(shown: T[], read: T[], keyOf: (row: T) => string): T[] {
  const seen = new Set(shown.map(keyOf));
  const added = read.filter((row) => {
    const key = keyOf(row);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  return [...shown, ...added];
}

/**
 * Where a paged list stands: pages read, and rows removed since the last read (the later pages
 * moved up by as many). Pure: `usePaged` holds one, the tests drive one. Its rules:
 * - a read for more is planned only when no removal is under way (`usePaged` waits for them), so
 *   every page it reads sees those removals done;
 * - a removal that starts while the pages are read makes the read stale (`merge` answers null):
 *   it is planned and read again;
 * - rows read twice (the read starts early enough for any shift) are dropped by key.
 */
export class Paging<T> {
  pages = 1;
  /** Rows removed since the last read: the later pages moved up by as many. */
  shift = 0;
  /** Removals started and not yet answered. */
  #pending = 0;

  constructor(
    readonly size: number,
    readonly keyOf: (row: T) => string,
  ) {}

  /** Whether a removal is under way: wait for it before `plan`. */
  get removing(): boolean {
    return this.#pending > 0;
  }

  /** The pages to read for more, and the shift `merge` checks. */
  plan(): { pages: number[]; shift: number } {
    if (this.#pending > 0) throw new Error("a removal is under way: plan after it");
    return { pages: nextPages(this.pages, this.shift, this.size), shift: this.shift };
  }

  /**
   * The rows after reading `plan`'s pages: the new ones after `shown`; null when a removal
   * started while the pages were read (they may have moved under the read): plan and read again.
   */
  merge(shown: T[], answers: T[][], plan: { shift: number }): { rows: T[]; more: boolean } | null {
    if (this.shift !== plan.shift) return null;
    this.pages += 1;
    this.shift = 0;
    return {
      rows: answers.reduce((all, page) => appendNew(all, page, this.keyOf), shown),
      more: answers.at(-1)?.length === this.size,
    };
  }

  /**
   * A removal starts: it counts from now, as the server may drop the row before the page hears
   * back (one that then fails stays counted: a count too high only reads a row twice).
   */
  started(): void {
    this.shift += 1;
    this.#pending += 1;
  }

  /** A removal is answered, done or failed. */
  ended(): void {
    this.#pending -= 1;
  }

  /** Every row was removed. */
  clear(): void {
    this.pages = 1;
    this.shift = 0;
  }
}
