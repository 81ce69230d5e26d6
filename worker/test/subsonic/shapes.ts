import { type OutputUnit, type Schema, Validator } from "@cfworker/json-schema";
import { XMLParser } from "fast-xml-parser";
import schemas from "./answer-schemas.json";
import type { Answer } from "./support.ts";

/**
 * Answers checked against the shapes a client library declares (answer-schemas.json, generated
 * from subsonic-api's types by worker/scripts/subsonic-schemas.ts), and an XML answer's structure
 * against its JSON twin.
 */

/** The methods the schema file checks, by name. */
export const CHECKED_METHODS = Object.keys(schemas.methods);

const DRAFT = "http://json-schema.org/draft-07/schema#";

type Definitions = Record<string, Schema>;
const definitions = schemas.definitions as unknown as Definitions;

/**
 * A method's schema as its branches: the library's answers are unions (ok or failed, with or
 * without OpenSubsonic's members), and an answer is valid when one branch takes it.
 */
function branches(method: string): Schema[] {
  const ref = (schemas.methods as Record<string, { $ref: string } | undefined>)[method]?.$ref;
  if (!ref) throw new Error(`no answer schema for ${method}`);
  let schema: Schema = { $ref: ref };
  while (schema.$ref) schema = definitions[schema.$ref.replace("#/definitions/", "")] as Schema;
  return schema.anyOf ?? [schema];
}

/** One validator per branch: each new one dereferences every definition again. */
const validators = new WeakMap<Schema, Validator>();
function validatorOf(branch: Schema): Validator {
  let validator = validators.get(branch);
  if (!validator) {
    validator = new Validator({ $schema: DRAFT, definitions, ...branch } as Schema, "7", false);
    validators.set(branch, validator);
  }
  return validator;
}

/**
 * The failures of an answer (the body's `subsonic-response`) under the branch it comes closest
 * to, one line each; an empty list when valid. @cfworker/json-schema interprets the schema, as
 * the contract check does (test/support/contract.ts): no code generated at run time, which
 * workerd forbids outside the test pool.
 */
export function shapeErrors(method: string, answer: unknown): string[] {
  let closest: string[] | undefined;
  for (const branch of branches(method)) {
    const { valid, errors } = validatorOf(branch).validate(answer);
    if (valid) return [];
    const lines = [
      ...new Set(
        errors
          .filter((error: OutputUnit) => !["properties", "items", "$ref"].includes(error.keyword))
          .map((error) => `${error.instanceLocation}: ${error.error}`),
      ),
    ];
    if (!closest || lines.length < closest.length) closest = lines;
  }
  return closest ?? [];
}

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: "@",
  parseAttributeValue: false,
  parseTagValue: false,
  textNodeName: "#text",
  alwaysCreateTextNode: true,
  // Every element is a list: the shape compared is the names, not how many.
  isArray: (_name, _path, _leaf, isAttribute) => !isAttribute,
});

/** The parsed `subsonic-response` element of an XML answer, every element a list. */
export function xmlTree(text: string): Answer {
  const root = (parser.parse(text) as Answer)["subsonic-response"] as Answer[];
  return root[0] as Answer;
}

const child = (path: string, key: string) => (path ? `${path}.${key}` : key);

/**
 * The structure of an XML element as paths: `playlist.entry@id` for an attribute, `genres#text`
 * for an element's text, `playlists` for an element. The XML namespace has no JSON twin.
 */
export function xmlShape(node: Answer, path = ""): string[] {
  const paths = new Set<string>();
  for (const [key, value] of Object.entries(node)) {
    if (key === "@xmlns") continue;
    if (key.startsWith("@")) paths.add(`${path}${key}`);
    else if (key === "#text") {
      if (value !== "") paths.add(`${path}#text`);
    } else {
      for (const item of value as Answer[]) {
        paths.add(child(path, key));
        for (const inner of xmlShape(item, child(path, key))) paths.add(inner);
      }
    }
  }
  return [...paths].sort();
}

/**
 * The same paths read from a JSON answer by the protocol's rule that JSON mirrors XML: a scalar
 * is an attribute (`value` the element's text), an object an element, an array repeated elements
 * (of text when its items are scalars).
 */
export function jsonShape(node: Answer, path = ""): string[] {
  const paths = new Set<string>();
  for (const [key, value] of Object.entries(node)) {
    if (typeof value !== "object" || value === null) {
      paths.add(key === "value" ? `${path}#text` : `${path}@${key}`);
      continue;
    }
    for (const item of Array.isArray(value) ? value : [value]) {
      paths.add(child(path, key));
      if (typeof item !== "object") paths.add(`${child(path, key)}#text`);
      else for (const inner of jsonShape(item, child(path, key))) paths.add(inner);
    }
  }
  return [...paths].sort();
}
