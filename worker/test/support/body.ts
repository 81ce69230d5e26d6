/**
 * A response's body as UTF-8 text, decoded from its bytes. `Response.text()` does the same, but
 * workerd prints a warning for every call on a body whose type it does not hold to be text (a
 * playlist, a segment, an Opus file, a form), which buried the run's output in noise.
 */
export async function textOf(response: Response): Promise<string> {
  return new TextDecoder().decode(await response.arrayBuffer());
}

/**
 * Whether two byte arrays are equal, and if not, where they first differ. `toEqual` on arrays of a
 * few hundred thousand bytes compared them element by element through vitest's deep equality:
 * seconds of CPU in workerd, for an answer this gives in a millisecond.
 */
export function byteDifference(actual: Uint8Array, expected: Uint8Array): string | null {
  const length = Math.min(actual.length, expected.length);
  for (let i = 0; i < length; i++) {
    if (actual[i] !== expected[i]) return `byte ${i} is ${actual[i]}, not ${expected[i]}`;
  }
  if (actual.length !== expected.length) {
    return `${actual.length} bytes, not ${expected.length}`;
  }
  return null;
}
