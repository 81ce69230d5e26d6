// A list read a page at a time ("Load more") whose rows the page may remove meanwhile: the
// listener's playlists, likes, the artists they follow, their history, an artist's tracks and
// albums. The rules of the paging are in paging.ts (pure, unit-tested).
import type { ComponentChildren } from "preact";
import { useRef, useState } from "preact/hooks";
import { useAction } from "./action.ts";
import { useFocusAt } from "./focus.ts";
import { ErrorMessage, Loading } from "./messages.tsx";
import { Paging } from "./paging.ts";
import { useLatest, useResource } from "./resource.ts";

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
  // The removals under way, which a read for more waits for.
  const inflight = useRef(new Set<Promise<void>>());
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
        while (cursor.removing) await Promise.allSettled([...inflight.current]);
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
      cursor.started();
      const done = write();
      inflight.current.add(done);
      try {
        await done;
      } finally {
        inflight.current.delete(done);
        cursor.ended();
      }
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

export type Paged<T> = ReturnType<typeof usePaged<T>>;

/**
 * A paged list as a page shows it: its error, Loading until the first page, the rows (as
 * `children` draws them), and Load more; once the last page came, the focus goes to the first
 * row it brought (`focus` picks one control per row). `children` also gets `focusAt`, for a
 * page that removes rows: the focus then goes to the same control of the row now at `index`.
 */
export function PagedList<T>({
  list,
  focus,
  children,
}: {
  list: Paged<T>;
  focus: string;
  children: (rows: T[], focusAt: (index: number) => void) => ComponentChildren;
}) {
  const { box, focusAt } = useFocusAt(focus);
  const reading = useAction();
  const loadMore = () =>
    reading.run(async () => {
      const { shown, more } = await list.loadMore();
      if (!more) focusAt(shown);
    });
  return (
    <>
      <ErrorMessage error={list.error ?? reading.error} />
      {!list.rows ? (
        !list.error && <Loading />
      ) : (
        <div ref={box}>
          {children(list.rows, focusAt)}
          {list.more && <LoadMore busy={reading.busy} onClick={loadMore} />}
        </div>
      )}
    </>
  );
}
