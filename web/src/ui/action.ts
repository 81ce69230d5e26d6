import { useRef, useState } from "preact/hooks";

/**
 * One action at a time from a button: busy while it runs, its error kept for an ErrorMessage.
 * The guard is a ref, not the `busy` state: two clicks before the next render both see the state
 * of the render before, and would both start.
 */
export function useAction() {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const running = useRef(false);
  const run = async (action: () => Promise<unknown>) => {
    if (running.current) return;
    running.current = true;
    setBusy(true);
    setError(null);
    try {
      await action();
    } catch (e) {
      setError(e);
    } finally {
      running.current = false;
      setBusy(false);
    }
  };
  return { busy, error, run };
}
