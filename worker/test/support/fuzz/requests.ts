import fc from "fast-check";
import type { OpenApiDocument, Operation, Parameter } from "../openapi-routes.ts";
import { resolve } from "../openapi-routes.ts";
import {
  contentType,
  encodeSegment,
  extraHeaders,
  hostileId,
  hostileString,
  oddCookie,
  rangeHeader,
} from "./hostile.ts";
import {
  type FilePart,
  filePart,
  fuzzArbitrary,
  invalidArbitrary,
  validArbitrary,
} from "./schema-arbitrary.ts";

/** One fuzzed request as plain data, so that fast-check prints a readable counterexample. */
export interface RequestSpec {
  method: string;
  /** Path and query, already encoded. */
  url: string;
  headers: Record<string, string>;
  body?: BodySpec;
  /** Whether the caller's session cookie is sent, and what odd cookie goes with or instead of it. */
  cookie: { session: boolean; odd?: string };
}

export type BodySpec =
  | { kind: "json"; contentType: string; value: unknown }
  | { kind: "raw"; contentType: string; text: string }
  | { kind: "form"; fields: Array<[string, string | FilePart]> };

export interface FuzzContext {
  doc: OpenApiDocument;
  /** The caller's id and its rows, so that requests get past 404s and ownership checks. */
  ownIds: string[];
  /** Ids of other rows that exist (the catalogue's). */
  knownIds: string[];
  /** Whether the requests carry a session. */
  signedIn: boolean;
}

/**
 * "valid": every part from the schemas, so that requests reach the services; "hostile": any part
 * may be wrong, malformed, oversized or missing.
 */
type Mode = "valid" | "hostile";

const stringify = (value: unknown): string =>
  typeof value === "string" ? value : (JSON.stringify(value) ?? "");

const weighted = <T>(entries: Array<[number, fc.Arbitrary<T>]>) =>
  fc.oneof(...entries.map(([weight, arbitrary]) => ({ weight, arbitrary })));

function pathValue(ctx: FuzzContext, parameter: Parameter, mode: Mode): fc.Arbitrary<string> {
  const schema = resolve(ctx.doc, parameter.schema);
  const choices: Array<[number, fc.Arbitrary<string>]> = [
    [2, validArbitrary(ctx.doc, schema).map(stringify)],
  ];
  if (schema.format === "uuid") {
    if (ctx.ownIds.length > 0) choices.push([4, fc.constantFrom(...ctx.ownIds)]);
    if (ctx.knownIds.length > 0) choices.push([4, fc.constantFrom(...ctx.knownIds)]);
  }
  if (mode === "hostile") choices.push([3, schema.format === "uuid" ? hostileId : hostileString]);
  return weighted(choices);
}

function queryValue(ctx: FuzzContext, parameter: Parameter, mode: Mode): fc.Arbitrary<string[]> {
  const schema = resolve(ctx.doc, parameter.schema);
  const one = (s = schema) =>
    mode === "valid"
      ? validArbitrary(ctx.doc, s).map(stringify)
      : weighted([
          [2, validArbitrary(ctx.doc, s).map(stringify)],
          [2, invalidArbitrary(ctx.doc, s).map(stringify)],
          [1, hostileString],
        ]);
  if (schema.type === "array") {
    return fc.array(one(schema.items ?? {}), { minLength: mode === "valid" ? 1 : 0, maxLength: 6 });
  }
  if (mode === "valid") return one().map((v) => [v]);
  return weighted([
    [4, one().map((v) => [v])],
    [1, fc.array(one(), { minLength: 2, maxLength: 3 })],
  ]);
}

function urlArbitrary(ctx: FuzzContext, op: Operation, mode: Mode): fc.Arbitrary<string> {
  const pathParams = op.parameters.filter((p) => p.in === "path");
  const queryParams = op.parameters.filter((p) => p.in === "query");
  const values = fc.record(
    Object.fromEntries(pathParams.map((p) => [p.name, pathValue(ctx, p, mode)])),
  ) as fc.Arbitrary<Record<string, string>>;
  // Now and then hostile segments go out unencoded: `../` then walks out of the route.
  const raw = mode === "hostile" ? fc.nat({ max: 9 }).map((n) => n === 0) : fc.constant(false);
  const path = fc.tuple(values, raw).map(([byName, unencoded]) =>
    op.path.replace(/\{([^}]+)\}/g, (_m, name: string) => {
      const value = byName[name] ?? "";
      return unencoded ? value.replace(/[?#]/g, "") : encodeSegment(value);
    }),
  );
  const required = queryParams.filter((p) => p.required).map((p) => p.name);
  const known = fc.record(
    Object.fromEntries(queryParams.map((p) => [p.name, queryValue(ctx, p, mode)])),
    { requiredKeys: mode === "valid" ? required : [] },
  ) as fc.Arbitrary<Record<string, string[]>>;
  const extra =
    mode === "hostile"
      ? fc.array(fc.tuple(hostileString, hostileString), { maxLength: 2 })
      : fc.constant([] as Array<[string, string]>);
  return fc.tuple(path, known, extra).map(([base, byName, more]) => {
    const pairs = [
      ...Object.entries(byName).flatMap(([k, vs]) => vs.map((v): [string, string] => [k, v])),
      ...more,
    ];
    const search = pairs.map(([k, v]) => `${encodeSegment(k)}=${encodeSegment(v)}`).join("&");
    return search ? `${base}?${search}` : base;
  });
}

const malformedJson = fc.constantFrom(
  "",
  "{",
  '{"title":',
  "null",
  '"text"',
  "[]",
  "\ufeff{}",
  "{'single': 'quotes'}",
  '{"a":1,"a":2}',
  `${"[".repeat(10_000)}${"]".repeat(10_000)}`,
  `{"title":"${"t".repeat(1_100_000)}"}`,
);

const isFilePart = (value: unknown): value is FilePart =>
  typeof value === "object" && value !== null && "file" in value && "name" in value;

/** An object value as multipart fields: files stay files, everything else becomes text. */
function toFields(value: unknown): Array<[string, string | FilePart]> {
  const entries =
    value && typeof value === "object" && !Array.isArray(value)
      ? Object.entries(value as Record<string, unknown>)
      : [["value", value] as [string, unknown]];
  return entries.map(([k, v]) => [k, isFilePart(v) ? v : stringify(v)]);
}

function bodyArbitrary(ctx: FuzzContext, op: Operation, mode: Mode) {
  const value = (schema: Operation["body"][string]) =>
    mode === "valid" ? validArbitrary(ctx.doc, schema) : fuzzArbitrary(ctx.doc, schema);
  const options: Array<[number, fc.Arbitrary<BodySpec | undefined>]> = [];
  const json = op.body["application/json"];
  if (json) {
    const asJson = value(json).map(
      (v): BodySpec => ({ kind: "json", contentType: "application/json", value: v }),
    );
    options.push([6, asJson]);
  }
  const multipart = op.body["multipart/form-data"];
  if (multipart) {
    const extra =
      mode === "valid"
        ? fc.constant([])
        : fc.array(fc.tuple(fc.string({ maxLength: 10 }), fc.oneof(hostileString, filePart)), {
            maxLength: 2,
          });
    const fields = fc.tuple(value(multipart), extra).map(([v, more]) => [...toFields(v), ...more]);
    options.push([6, fields.map((f): BodySpec => ({ kind: "form", fields: f }))]);
  }
  if (mode === "hostile" || options.length === 0) {
    const raw = fc.tuple(contentType, fc.oneof(malformedJson, hostileString));
    options.push([
      1,
      raw.map(([type, text]): BodySpec => ({ kind: "raw", contentType: type, text })),
    ]);
    options.push([1, fc.constant(undefined)]);
  }
  return weighted(options);
}

function specArbitrary(ctx: FuzzContext, op: Operation, mode: Mode): fc.Arbitrary<RequestSpec> {
  const hasBody = !["GET", "HEAD"].includes(op.method);
  const range = op.method === "GET" ? fc.option(rangeHeader, { freq: 2 }) : fc.constant(null);
  const headers = mode === "valid" ? fc.constant({}) : extraHeaders;
  const session = { session: ctx.signedIn };
  return fc.record({
    method: fc.constant(op.method),
    url: urlArbitrary(ctx, op, mode),
    headers: fc
      .tuple(headers, range)
      .map(([h, r]): Record<string, string> => (r === null ? h : { ...h, range: r })),
    body:
      hasBody && Object.keys(op.body).length + (mode === "hostile" ? 1 : 0) > 0
        ? bodyArbitrary(ctx, op, mode)
        : fc.constant(undefined),
    cookie:
      mode === "valid"
        ? fc.constant(session)
        : weighted([
            [3, fc.constant(session)],
            [1, oddCookie.map((odd) => ({ ...session, odd }))],
          ]),
  });
}

/** Requests for one operation: wholly valid ones, and ones with anything wrong in them. */
export function requestArbitrary(ctx: FuzzContext, op: Operation): fc.Arbitrary<RequestSpec> {
  return weighted([
    [2, specArbitrary(ctx, op, "valid")],
    [3, specArbitrary(ctx, op, "hostile")],
  ]);
}
