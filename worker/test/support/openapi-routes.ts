import type { PrincipalKind } from "../../src/security/account-kinds.ts";
import { app } from "./auth.ts";
import { send } from "./env.ts";

/** The parts of an OpenAPI 3.1 document the route-table tests read. */
export type JsonSchema = {
  $ref?: string;
  type?: string | string[];
  format?: string;
  pattern?: string;
  enum?: unknown[];
  example?: unknown;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  minItems?: number;
  maxItems?: number;
  items?: JsonSchema;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
};

export interface Parameter {
  name: string;
  in: "path" | "query" | "header" | "cookie";
  required?: boolean;
  schema: JsonSchema;
}

interface RawOperation {
  parameters?: Parameter[];
  requestBody?: { required?: boolean; content: Record<string, { schema: JsonSchema }> };
  security?: Array<Record<string, string[]>>;
  tags?: string[];
  "x-account-kind"?: PrincipalKind;
}

export interface OpenApiDocument {
  paths: Record<string, Record<string, RawOperation>>;
  components: { schemas: Record<string, JsonSchema> };
}

/**
 * How an operation is guarded, from its declared `security`: no requirement is public; an empty
 * alternative next to the cookie is optional sign-in; the cookie alone is one kind of account.
 */
export type Access =
  | { type: "public" }
  | { type: "optional" }
  | { type: "protected"; kind: PrincipalKind }
  | { type: "unclear"; why: string };

export interface Operation {
  /** `GET /api/v1/playlists/{id}`: the id the tests name and allowlist operations by. */
  id: string;
  method: string;
  /** The OpenAPI path template, `{param}` style. */
  path: string;
  parameters: Parameter[];
  /** Content type → schema (with `$ref`s resolved on use); empty without a body. */
  body: Record<string, JsonSchema>;
  bodyRequired: boolean;
  access: Access;
}

function accessOf(op: RawOperation): Access {
  const security = op.security ?? [];
  if (security.length === 0) return { type: "public" };
  const usesCookie = security.some((alt) => "accessCookie" in alt);
  const anonymousToo = security.some((alt) => Object.keys(alt).length === 0);
  if (!usesCookie) return { type: "unclear", why: `unknown security ${JSON.stringify(security)}` };
  if (anonymousToo) return { type: "optional" };
  const kind = op["x-account-kind"];
  if (!kind) return { type: "unclear", why: "protected, but declares no x-account-kind" };
  return { type: "protected", kind };
}

/** The app's own OpenAPI document, as clients get it. */
export async function loadDocument(): Promise<OpenApiDocument> {
  const response = await send(app, "/api/v1/openapi.json");
  if (response.status !== 200) throw new Error(`openapi.json answered ${response.status}`);
  return (await response.json()) as OpenApiDocument;
}

/** Every operation of the document. */
export function operationsOf(doc: OpenApiDocument): Operation[] {
  return Object.entries(doc.paths).flatMap(([path, item]) =>
    Object.entries(item).map(([method, op]) => ({
      id: `${method.toUpperCase()} ${path}`,
      method: method.toUpperCase(),
      path,
      parameters: op.parameters ?? [],
      body: Object.fromEntries(
        Object.entries(op.requestBody?.content ?? {}).map(([type, media]) => [type, media.schema]),
      ),
      bodyRequired: op.requestBody?.required ?? false,
      access: accessOf(op),
    })),
  );
}

/** Follows `$ref`s into `components.schemas`. */
export function resolve(doc: OpenApiDocument, schema: JsonSchema): JsonSchema {
  let current = schema;
  for (let depth = 0; current.$ref && depth < 10; depth++) {
    const name = current.$ref.replace("#/components/schemas/", "");
    const target = doc.components.schemas[name];
    if (!target) throw new Error(`unresolved ${current.$ref}`);
    current = target;
  }
  return current;
}

/** A path template filled in: `{id}` → the value, percent-encoded unless `raw`. */
export function fillPath(
  template: string,
  values: Record<string, string>,
  options: { raw?: boolean } = {},
): string {
  return template.replace(/\{([^}]+)\}/g, (_match, name: string) => {
    const value = values[name] ?? "";
    return options.raw ? value : encodeURIComponent(value);
  });
}

/** `METHOD /path/{param}` of every route registered in the app's router (middleware excluded). */
export function registeredRoutes(): Set<string> {
  return new Set(
    app.routes
      .filter((route) => route.method !== "ALL")
      .map((route) => `${route.method} ${route.path.replace(/:([A-Za-z0-9_]+)/g, "{$1}")}`),
  );
}
