import fc from "fast-check";
import { type JsonSchema, type OpenApiDocument, resolve } from "../openapi-routes.ts";
import { hostileString } from "./hostile.ts";

/**
 * JSON Schema (as @hono/zod-openapi writes it) → fast-check arbitraries, so that every operation
 * of the document is fuzzed from its own declared shapes: a new route needs no test code.
 * Binary fields (`format: binary`) are generated as the marker `{ file: … }` and turned into files
 * when a multipart body is built.
 */

/** A file part of a multipart body: which bytes, as plain data so a counterexample prints. */
export interface FilePart {
  file: "png" | "jpg" | "webp" | "text" | "empty" | "zeros";
  name: string;
}

const typesOf = (schema: JsonSchema): string[] =>
  schema.type === undefined ? [] : Array.isArray(schema.type) ? schema.type : [schema.type];

const fileName = fc.oneof(
  fc.constantFrom("a.png", "cover.jpg", "x", "../../etc/passwd", "a\u0000b.png", ""),
  fc.string({ unit: "binary", maxLength: 20 }),
);
export const filePart: fc.Arbitrary<FilePart> = fc.record({
  file: fc.constantFrom("png", "jpg", "webp", "text", "empty", "zeros"),
  name: fileName,
});

const isoDate = fc
  .date({ min: new Date("0001-01-01T00:00:00Z"), max: new Date("9999-12-31T00:00:00Z") })
  .filter((d) => !Number.isNaN(d.getTime()))
  .map((d) => d.toISOString().slice(0, 10));

function validString(schema: JsonSchema): fc.Arbitrary<string> {
  if (schema.format === "uuid") return fc.uuid();
  if (schema.format === "date") return isoDate;
  if (schema.pattern) {
    return fc.stringMatching(new RegExp(schema.pattern), { maxLength: schema.maxLength ?? 64 });
  }
  const minLength = schema.minLength ?? 0;
  const maxLength = schema.maxLength ?? Math.max(minLength, 64);
  return fc.oneof(
    { weight: 4, arbitrary: fc.string({ minLength, maxLength }) },
    // Real unicode, not only ASCII: zod counts UTF-16 code units, Postgres characters.
    { weight: 1, arbitrary: fc.string({ unit: "grapheme", minLength, maxLength }) },
    { weight: 1, arbitrary: fc.constant("x".repeat(maxLength)) },
  );
}

/** Values the schema accepts (as far as JSON Schema can say; the server may still refuse). */
export function validArbitrary(doc: OpenApiDocument, raw: JsonSchema): fc.Arbitrary<unknown> {
  const schema = resolve(doc, raw);
  const generated = fromSchema(doc, schema);
  // The documented example too: it names values the schema cannot (`google` for a provider).
  return schema.example === undefined
    ? generated
    : fc.oneof(generated, fc.constant(schema.example));
}

function fromSchema(doc: OpenApiDocument, schema: JsonSchema): fc.Arbitrary<unknown> {
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives) return fc.oneof(...alternatives.map((s) => validArbitrary(doc, s)));
  if (schema.enum) return fc.constantFrom(...schema.enum);
  const types = typesOf(schema);
  if (types.length > 1) {
    return fc.oneof(...types.map((type) => validArbitrary(doc, { ...schema, type })));
  }
  switch (types[0]) {
    case "string":
      return schema.format === "binary" ? filePart : validString(schema);
    case "integer":
      return fc.integer({
        min: schema.minimum ?? -(2 ** 31),
        max: Math.min(schema.maximum ?? 2 ** 31, 2 ** 31),
      });
    case "number":
      return fc.double({
        noNaN: true,
        noDefaultInfinity: true,
        min: schema.minimum ?? -1e9,
        max: schema.maximum ?? 1e9,
      });
    case "boolean":
      return fc.boolean();
    case "null":
      return fc.constant(null);
    case "array":
      return fc.array(validArbitrary(doc, schema.items ?? {}), {
        minLength: schema.minItems ?? 0,
        maxLength: Math.min(schema.maxItems ?? 5, 5),
      });
    case "object": {
      const properties = schema.properties ?? {};
      return fc.record(
        Object.fromEntries(
          Object.entries(properties).map(([key, s]) => [key, validArbitrary(doc, s)]),
        ),
        { requiredKeys: (schema.required ?? []).filter((key) => key in properties) },
      );
    }
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

/** A JSON value of any type: mostly of a type the schema does not want. */
const anyJson = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  fc.integer(),
  fc.constantFrom(1e308, -1e308, 2 ** 53 + 1, -0, 0.5),
  hostileString,
  fc.array(fc.jsonValue({ maxDepth: 1 }), { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 1 }), { maxKeys: 3 }),
);

/** Values just outside the schema: boundaries, wrong types, missing and extra members. */
export function invalidArbitrary(doc: OpenApiDocument, raw: JsonSchema): fc.Arbitrary<unknown> {
  const schema = resolve(doc, raw);
  const near: fc.Arbitrary<unknown>[] = [anyJson];
  const types = typesOf(schema);
  if (types.includes("string")) {
    const { minLength = 0, maxLength } = schema;
    if (maxLength !== undefined) near.push(fc.constant("y".repeat(maxLength + 1)));
    if (minLength > 0) near.push(fc.constant("z".repeat(minLength - 1)));
    if (schema.format === "uuid") near.push(fc.uuid().map((id) => id.toUpperCase().slice(1)));
    if (schema.format === "date") {
      near.push(fc.constantFrom("2024-02-30", "0000-00-00", "99999-01-01", "2024-13-01"));
    }
  }
  if (types.includes("integer") || types.includes("number")) {
    const { minimum, maximum } = schema;
    if (minimum !== undefined) near.push(fc.constant(minimum - 1));
    if (maximum !== undefined) near.push(fc.constant(maximum + 1));
    near.push(fc.constantFrom(1.5, 2 ** 63, -(2 ** 63), "1", "NaN"));
  }
  if (types.includes("array")) {
    near.push(fc.constant([]));
    near.push(fc.array(invalidArbitrary(doc, schema.items ?? {}), { minLength: 1, maxLength: 3 }));
    if (schema.maxItems !== undefined && schema.items) {
      const item = resolve(doc, schema.items);
      near.push(fc.array(validArbitrary(doc, item), { minLength: schema.maxItems + 1 }));
    }
  }
  if (types.includes("object") && Object.keys(schema.properties ?? {}).length > 0) {
    near.push(objectWithOneBadMember(doc, schema));
  }
  return fc.oneof(...near);
}

/** An otherwise valid object with one member missing, wrong, or an unexpected member added. */
function objectWithOneBadMember(doc: OpenApiDocument, schema: JsonSchema): fc.Arbitrary<unknown> {
  const keys = Object.keys(schema.properties ?? {});
  const valid = validArbitrary(doc, schema) as fc.Arbitrary<Record<string, unknown>>;
  const wrongMember = fc
    .constantFrom(...keys)
    .chain((key) =>
      fc.tuple(fc.constant(key), invalidArbitrary(doc, schema.properties?.[key] ?? {})),
    );
  return fc.oneof(
    fc.tuple(valid, fc.constantFrom(...keys)).map(([object, key]) => {
      const { [key]: _dropped, ...rest } = object;
      return rest;
    }),
    fc.tuple(valid, wrongMember).map(([object, [key, bad]]) => ({ ...object, [key]: bad })),
    fc
      .tuple(valid, fc.constantFrom("__proto__", "constructor", "id", "artistId", "isAdmin"))
      .map(([object, key]) => JSON.parse(JSON.stringify({ ...object, [key]: { polluted: true } }))),
  );
}

/** What the fuzzer sends for a schema: mostly valid (to get past validation), often not. */
export function fuzzArbitrary(doc: OpenApiDocument, schema: JsonSchema): fc.Arbitrary<unknown> {
  return fc.oneof(
    { weight: 3, arbitrary: validArbitrary(doc, schema) },
    { weight: 2, arbitrary: invalidArbitrary(doc, schema) },
  );
}
