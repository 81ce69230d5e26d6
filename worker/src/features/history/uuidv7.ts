const MAX_UNIX_MS = 2 ** 48 - 1;

/**
 * A UUIDv7 (RFC 9562 §5.7): 48-bit big-endian Unix milliseconds, version 7, variant 10, and 74
 * random bits. Ids minted in different milliseconds sort (as strings or as Postgres uuids) by
 * time; ids of the same millisecond are in random order, so callers that need a total order
 * break ties on another column first (history orders by listened_at, then id).
 */
export function uuidv7(unixMs: number = Date.now()): string {
  if (!Number.isInteger(unixMs) || unixMs < 0 || unixMs > MAX_UNIX_MS) {
    throw new RangeError(`uuidv7 needs integer milliseconds in [0, 2^48): got ${unixMs}`);
  }
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes.subarray(6));
  let rest = unixMs;
  for (let i = 5; i >= 0; i--) {
    bytes[i] = rest % 256;
    rest = Math.floor(rest / 256);
  }
  bytes[6] = 0x70 | ((bytes[6] ?? 0) & 0x0f);
  bytes[8] = 0x80 | ((bytes[8] ?? 0) & 0x3f);
  const hex = Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** The milliseconds a UUIDv7 carries. */
export const uuidv7Time = (id: string): number =>
  Number.parseInt(id.replace(/-/g, "").slice(0, 12), 16);
