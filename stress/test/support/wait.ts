/**
 * Polls `probe` until it returns a value (anything but undefined or false) and returns it; throws
 * `what` with the last value seen once `timeoutMs` has passed. States are polled, never slept for.
 */
export async function until<T>(
  what: string,
  probe: () => Promise<T | undefined | false>,
  { timeoutMs, intervalMs = 200 }: { timeoutMs: number; intervalMs?: number },
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await probe();
      if (value !== undefined && value !== false) return value;
      last = value;
    } catch (error) {
      // A probe may fail while the fault lasts (Redis or Postgres down); keep polling.
      last = error;
    }
    if (Date.now() > deadline) {
      const detail = last instanceof Error ? last.message : String(last);
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what} (last: ${detail})`);
    }
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
