/**
 * What the answer schemas are generated from, shared by the generator
 * (`worker/scripts/subsonic-schemas.ts`, in Node) and the shapes test (in workerd): a change to
 * any input changes the hash the schema file records, and the test then asks to regenerate; a
 * second hash covers what was generated, so an edit by hand fails the same test.
 */

/** Methods answering bytes (audio, images): no document to check. */
export const BYTE_METHODS = ["download", "getCoverArt", "stream"];

/** `getAlbum` → `GetAlbumAnswer`, the type's name in answer-types.ts. */
export const answerTypeName = (method: string) =>
  `${method.charAt(0).toUpperCase()}${method.slice(1)}Answer`;

export interface SchemaInputs {
  /** The generator script's text and the types file's text. */
  script: string;
  types: string;
  /** The library's and the generator's versions as the worker's package.json pins them. */
  library: string | undefined;
  generator: string | undefined;
}

export const inputsHash = (inputs: SchemaInputs) =>
  sha256([inputs.script, inputs.types, inputs.library, inputs.generator]);

/** The generated part of the schema file, so that an edit by hand shows too. */
export const contentsHash = (contents: Record<string, unknown>) => sha256(contents);

async function sha256(value: unknown): Promise<string> {
  const text = new TextEncoder().encode(JSON.stringify(value));
  const digest = await crypto.subtle.digest("SHA-256", text);
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}
