// A list read a page at a time ("Load more") whose rows the page may remove meanwhile: the
// listener's playlists, the artists they follow, their history.
import { useRef, useState } from "preact/hooks";
import { useLatest, useResource } from "./resource.ts";

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
 * Where a paged list stands: pages read, rows removed since the last read (the later pages moved
 * up by as many), and every key removed (a read that overlaps a removal must not bring it back).
 * Pure: `usePaged` holds one, the tests drive one.
 */
interface Plan {
  pages: number[];
  shift: number;
  pending: number;
}

export class Paging<T> {
  pages = 1;
  /** Rows removed since the last read: the later pages moved up by as many. */
  shift = 0;
  /** Removals started and not yet answered: the server may drop their rows at any moment. */
  #pending = 0;
  readonly #goneKeys = new Set<string>();

  constructor(
    readonly size: number,
    readonly keyOf: (row: T) => string,
  ) {}

  /** The pages to read for more, with what `merge` must know of the moment they were asked. */
  plan(): Plan {
    return {
      pages: nextPages(this.pages, this.shift, this.size),
      shift: this.shift,
      pending: this.#pending,
    };
  }

  /**
   * The rows after reading `plan`'s pages: the new ones after `shown`; null when rows were removed
   * while the pages were read (the pages may have moved under the read, skipping a row): plan and
   * read again.
   */
  merge(shown: T[], answers: T[][], plan: Plan): { rows: T[]; more: boolean } | null {
    if (this.shift !== plan.shift) return null;
    const fresh = answers.map((page) => page.filter((row) => !this.#goneKeys.has(this.keyOf(row))));
    this.pages += 1;
    // A removal under way when the read was asked may have dropped its row after the read (or
    // before: then it is counted twice, harmlessly): it stays counted.
    this.shift = plan.pending;
    return {
      rows: fresh.reduce((all, page) => appendNew(all, page, this.keyOf), shown),
      more: answers.at(-1)?.length === this.size,
    };
  }

  /**
   * A removal starts: it counts from now, as the server may drop the row before the page hears
   * back (one that then fails stays counted: a count too high only reads a row twice, which the
   * keys drop).
   */
  removing(): void {
    this.shift += 1;
    this.#pending += 1;
  }

  /** The removal of `key` is done: a read must not bring the row back. */
  gone(key: string): void {
    this.#pending -= 1;
    this.#goneKeys.add(key);
  }

  /** A removal failed: the row stays (its count too, harmlessly). */
  failed(): void {
    this.#pending -= 1;
  }

  /** Every row was removed. */
  clear(): void {
    this.pages = 1;
    this.shift = 0;
  }
}

/**
 * The first page on mount, then `loadMore` for the next. `remove` and `clear` keep the paging
 * true after rows go, also while more is being read. `more`: whether a next page may exist (the
 * last read was full).
 */
export function usePaged<T>(
  read: (page: number, signal?: AbortSignal) => Promise<T[]>,
  size: number,
  keyOf: (row: T) => string,
) {
  const first = useResource((signal) => read(1, signal), []);
  const list = useLatest(first);
  const paging = useRef<Paging<T>>(null);
  paging.current ??= new Paging(size, keyOf);
  const cursor = paging.current;
  const [more, setMore] = useState<boolean | null>(null);
  const rows = first.data;
  return {
    rows,
    error: first.error,
    more: more ?? (rows?.length ?? 0) + cursor.shift >= size,
    /** The latest rows, with changes not yet rendered. */
    latest: list.get,
    /** Reads the next page; answers how many rows were shown before it, and whether more may follow. */
    async loadMore(): Promise<{ shown: number; more: boolean }> {
      for (;;) {
        const plan = cursor.plan();
        const answers = await Promise.all(plan.pages.map((page) => read(page)));
        const shown = list.get().length;
        const next = cursor.merge(list.get(), answers, plan);
        if (!next) continue; // A row went meanwhile: read again from where the rows are now.
        setMore(next.more);
        list.set(next.rows);
        return { shown, more: next.more };
      }
    },
    /**
     * Removes the row of `key` by `write` (the request that deletes it), then from the list;
     * nothing changes if `write` throws.
     */
    async remove(key: string, write: () => Promise<void>) {
      cursor.removing();
      try {
        await write();
      } catch (error) {
        cursor.failed();
        throw error;
      }
      cursor.gone(key);
      list.set(list.get().filter((row) => keyOf(row) !== key));
    },
    /** Every row is gone. */
    clear() {
      cursor.clear();
      setMore(false);
      list.set([]);
    },
  };
}

/**
 * The "Load more" button under a paged list. Not disabled while busy (a disabled button would
 * drop the keyboard focus): the action's own guard ignores a second press.
 */
export function LoadMore({ busy, onClick }: { busy: boolean; onClick: () => void }) {
  return (
    <div class="row">
      <button type="button" aria-busy={busy} onClick={onClick}>
        Load more
      </button>
    </div>
  );
}
