// Reading from the API in a component: the answer, the error, whether it is loading, and a way
// to read again. A newer read (deps changed) makes an older answer that arrives late be ignored.
import { useCallback, useEffect, useRef, useState } from "preact/hooks";

export interface Resource<T> {
  data: T | undefined;
  error: unknown;
  loading: boolean;
  reload(): void;
  /** Replaces the data in place (after a write whose answer is the new state). */
  set(data: T): void;
}

export function useResource<T>(
  read: (signal: AbortSignal) => Promise<T>,
  deps: unknown[],
): Resource<T> {
  const [state, setState] = useState<{ data?: T; error?: unknown; loading: boolean }>({
    loading: true,
  });
  const [round, setRound] = useState(0);
  const latest = useRef(0);
  // The caller's deps (and reload) decide when to read again.
  useEffect(() => {
    const id = ++latest.current;
    const controller = new AbortController();
    setState((s) => ({ data: s.data, loading: true }));
    read(controller.signal).then(
      (data) => id === latest.current && setState({ data, loading: false }),
      (error) =>
        id === latest.current && !controller.signal.aborted && setState({ error, loading: false }),
    );
    return () => controller.abort();
  }, [...deps, round]);
  const reload = useCallback(() => setRound((r) => r + 1), []);
  const set = useCallback((data: T) => setState({ data, loading: false }), []);
  return { data: state.data, error: state.error, loading: state.loading, reload, set };
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
