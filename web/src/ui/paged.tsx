// A list read a page at a time ("Load more") whose rows the page may remove meanwhile: the
// listener's playlists, the artists they follow, their history.
import { useRef, useState } from "preact/hooks";
import { type Resource, useResource } from "./resource.ts";

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
 * A list read with useResource, as writes that finish later must see it: the latest list,
 * including changes not yet rendered (two quick removals both hold).
 */
export function useLatest<T>(resource: Resource<T[]>) {
  const latest = useRef(resource.data);
  latest.current = resource.data;
  return {
    get: () => latest.current ?? [],
    set: (next: T[]) => {
      latest.current = next;
      resource.set(next);
    },
  };
}

/**
 * The first page on mount, then `loadMore` for the next. `remove` and `clear` keep the paging
 * true after rows go. `more`: whether a next page may exist (the last read was full).
 */
export function usePaged<T>(
  read: (page: number, signal?: AbortSignal) => Promise<T[]>,
  size: number,
  keyOf: (row: T) => string,
) {
  const first = useResource((signal) => read(1, signal), []);
  const list = useLatest(first);
  // Pages read so far, and rows removed since the last read.
  const paging = useRef({ pages: 1, removed: 0 });
  const [more, setMore] = useState<boolean | null>(null);
  const rows = first.data;
  return {
    rows,
    error: first.error,
    more: more ?? (rows?.length ?? 0) + paging.current.removed >= size,
    /** The latest rows, with changes not yet rendered. */
    latest: list.get,
    /** Reads the next page; answers how many rows were shown before it, and whether more may follow. */
    async loadMore(): Promise<{ shown: number; more: boolean }> {
      const { pages, removed } = paging.current;
      const answers = await Promise.all(nextPages(pages, removed, size).map((page) => read(page)));
      const shown = list.get().length;
      const full = answers.at(-1)?.length === size;
      paging.current = { pages: pages + 1, removed: 0 };
      setMore(full);
      list.set(answers.reduce((all, page) => appendNew(all, page, keyOf), list.get()));
      return { shown, more: full };
    },
    /** The row of `key` is gone (deleted by the page): later pages moved up by one. */
    remove(key: string) {
      paging.current.removed += 1;
      list.set(list.get().filter((row) => keyOf(row) !== key));
    },
    /** Every row is gone. */
    clear() {
      paging.current = { pages: 1, removed: 0 };
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
