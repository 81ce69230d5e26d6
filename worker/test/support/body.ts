/**
 * A response's body as UTF-8 text, decoded from its bytes. `Response.text()` does the same, but
 * workerd prints a warning for every call on a body whose type it does not hold to be text (a
 * playlist, a segment, an Opus file, a form), which buried the run's output in noise.
 */
export async function textOf(response: Response): Promise<string> {
  return new TextDecoder().decode(await response.arrayBuffer());
}
