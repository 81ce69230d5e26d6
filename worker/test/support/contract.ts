import { dereference, type Schema, type ValidationResult, validate } from "@cfworker/json-schema";
import { createApp } from "../../src/app.ts";
import { openApiDocumentOf } from "../../src/openapi/reference.ts";
import { textOf } from "./body.ts";

/**
 * Every answer the tests get is checked against the OpenAPI document (the contract): the
 * operation is found by method and path; its status must be documented, its content type one of
 * the documented ones, a JSON body valid against the documented schema (JSON Schema 2020-12, by
 * @cfworker/json-schema: no code generation, which workerd forbids), and every header the
 * document marks required present and valid. Paths the document does not know (unknown routes)
 * are not checked.
 */

interface HeaderObject {
  required?: boolean;
  schema?: Schema;
  $ref?: string;
}
interface ResponseObject {
  $ref?: string;
  headers?: Record<string, HeaderObject>;
  content?: Record<string, { schema?: Schema }>;
}
interface OperationObject {
  responses?: Record<string, ResponseObject>;
}
interface Document {
  paths: Record<string, Record<string, OperationObject>>;
  components?: Record<string, Record<string, unknown>>;
}

interface Route {
  method: string;
  template: string;
  pattern: RegExp;
  operation: OperationObject;
}

let compiled: { document: Document; routes: Route[] } | undefined;

function contract() {
  if (compiled) return compiled;
  const document = openApiDocumentOf(createApp()) as unknown as Document;
  const routes: Route[] = [];
  for (const [template, item] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(item)) {
      if (!["get", "put", "post", "delete", "patch", "head", "options"].includes(method)) continue;
      const source = template
        .split(/(\{[^}]+\})/)
        .map((part) => (part.startsWith("{") ? "[^/]+" : part.replace(/[.*+?^$()|[\]\\]/g, "\\$&")))
        .join("");
      routes.push({ method, template, pattern: new RegExp(`^${source}$`), operation });
    }
  }
  // Literal segments before parameters: /artists/me before /artists/{id}.
  const params = (template: string) => template.split("{").length;
  routes.sort((a, b) => params(a.template) - params(b.template));
  compiled = { document, routes };
  return compiled;
}

const resolve = <T extends { $ref?: string }>(document: Document, value: T): T => {
  if (!value.$ref) return value;
  const [, , group = "", name = ""] = value.$ref.split("/");
  return (document.components?.[group]?.[name] ?? {}) as T;
};

/**
 * The document's components, dereferenced once, and every schema checked so far under a name of
 * its own (`#/checked/<n>`), so that `#/components/schemas/…` resolves from any of them. A
 * Validator per schema walked all the components again for each new schema: about a second of
 * workerd's CPU per test process.
 */
let lookup: Record<string, Schema | boolean> | undefined;
const prepared = new WeakSet<object>();
let checked = 0;
function check(document: Document, schema: Schema, instance: unknown): ValidationResult {
  lookup ??= dereference({ components: document.components } as Schema);
  if (!prepared.has(schema)) {
    dereference(schema, lookup, undefined, `/checked/${checked++}`);
    prepared.add(schema);
  }
  return validate(instance, schema, "2020-12", lookup, false);
}

const mediaType = (value: string | null) => value?.split(";")[0]?.trim().toLowerCase() ?? "";
const isJson = (type: string) => type === "application/json" || type.endsWith("+json");

/** What is wrong with an answer, by the document (empty when it conforms or is not documented). */
export async function contractViolations(request: Request, response: Response): Promise<string[]> {
  const { document, routes } = contract();
  const path = new URL(request.url).pathname;
  const asked = request.method.toLowerCase();
  const method = asked === "head" ? "get" : asked;
  const route = routes.find((r) => r.method === method && r.pattern.test(path));
  if (!route) return [];
  const where = `${request.method} ${route.template} → ${response.status}`;
  const documented = route.operation.responses ?? {};
  const status = String(response.status);
  const entry = documented[status] ?? documented[`${status[0]}XX`] ?? documented.default;
  if (!entry) {
    return [`${where}: status not documented (documented: ${Object.keys(documented).join(", ")})`];
  }
  const answer = resolve(document, entry);
  const problems: string[] = [];

  for (const [name, raw] of Object.entries(answer.headers ?? {})) {
    const header = resolve(document, raw);
    const value = response.headers.get(name);
    if (value === null) {
      if (header.required) problems.push(`${where}: required header ${name} missing`);
      continue;
    }
    if (header.schema && name.toLowerCase() !== "set-cookie") {
      const type = (header.schema as { type?: string }).type;
      const instance = type === "integer" || type === "number" ? Number(value) : value;
      const result = check(document, header.schema, instance);
      if (!result.valid) problems.push(`${where}: header ${name} "${value}" ${describe(result)}`);
    }
  }

  const bodyless = response.status === 204 || response.status === 304 || asked === "head";
  const type = mediaType(response.headers.get("content-type"));
  if (bodyless || !response.body) return problems;
  const content = answer.content ?? {};
  const types = Object.keys(content);
  if (types.length === 0) {
    const text = await textOf(response.clone());
    if (text.length > 0) problems.push(`${where}: a body (${type}) where none is documented`);
    return problems;
  }
  const key = types.find(
    (t) => mediaType(t) === type || (t.endsWith("/*") && type.startsWith(t.slice(0, -1))),
  );
  if (!key) {
    problems.push(
      `${where}: content type "${type}" not documented (documented: ${types.join(", ")})`,
    );
    return problems;
  }
  const schema = content[key]?.schema;
  if (!isJson(type) || !schema) return problems;
  const text = await textOf(response.clone());
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    problems.push(`${where}: ${type} body is not JSON`);
    return problems;
  }
  const result = check(document, schema, body);
  if (!result.valid) problems.push(`${where}: body ${describe(result)}`);
  return problems;
}

function describe(result: ValidationResult): string {
  return result.errors
    .filter((e) => e.keyword !== "properties" && e.keyword !== "$ref" && e.keyword !== "allOf")
    .slice(0, 5)
    .map((e) => `${e.instanceLocation}: ${e.error}`)
    .join("; ");
}

/** Throws when an answer breaks the contract: the test that got it fails, naming the breach. */
export async function assertConforms(request: Request, response: Response): Promise<void> {
  const problems = await contractViolations(request, response);
  if (problems.length > 0) {
    throw new Error(`The answer breaks the OpenAPI document:\n- ${problems.join("\n- ")}`);
  }
}
