import { XMLBuilder } from "fast-xml-parser";
import { version as serverVersion } from "../../../../package.json";
import { SUBSONIC_ERRORS, SubsonicError } from "./errors.ts";

/** The protocol version we speak, and how we name ourselves in every answer. */
export const SUBSONIC_VERSION = "1.16.1";
export const SERVER_TYPE = "edge-music";
const NAMESPACE = "http://subsonic.org/restapi";

/**
 * An answer's body, written once for both formats: a scalar member is an XML attribute and a
 * JSON property; an object a child element and a JSON object; an array repeated child elements
 * named by its key and a JSON array; `value` the element's text (lyrics, licence text).
 */
export type Scalar = string | number | boolean;
export interface SubsonicNode {
  [member: string]: Scalar | SubsonicNode | SubsonicNode[] | Scalar[] | null | undefined;
}

export type Format = { kind: "xml" } | { kind: "json" } | { kind: "jsonp"; callback: string };

/** A JSONP callback is a dotted JavaScript name, nothing else: the answer is run as a script. */
const CALLBACK = /^[A-Za-z_$][\w$]*(\.[A-Za-z_$][\w$]*)*$/;

/**
 * The format asked with `f` (xml, the default; json; jsonp with `callback`). A JSONP request
 * without a usable callback is answered in JSON (error 10), never as a script.
 */
export function readFormat(params: URLSearchParams): { format: Format; error?: SubsonicError } {
  const f = params.get("f");
  if (f === "json") return { format: { kind: "json" } };
  if (f === "jsonp") {
    const callback = params.get("callback") ?? "";
    if (CALLBACK.test(callback) && callback.length <= 100) {
      return { format: { kind: "jsonp", callback } };
    }
    return {
      format: { kind: "json" },
      error: new SubsonicError(
        SUBSONIC_ERRORS.missingParameter,
        "Required parameter 'callback' is missing or not a JavaScript name.",
      ),
    };
  }
  return { format: { kind: "xml" } };
}

const builder = new XMLBuilder({
  ignoreAttributes: false,
  attributeNamePrefix: "@_",
  textNodeName: "#text",
  suppressEmptyNode: true,
  suppressBooleanAttributes: false,
});

/** The body as fast-xml-parser's builder takes it: attributes prefixed, text under `#text`. */
function toXmlTree(node: SubsonicNode): Record<string, unknown> {
  const tree: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (value === undefined || value === null) continue;
    if (Array.isArray(value)) {
      tree[key] = value.map((item) =>
        typeof item === "object" ? toXmlTree(item) : { "#text": String(item) },
      );
    } else if (typeof value === "object") {
      tree[key] = toXmlTree(value);
    } else if (key === "value") {
      tree["#text"] = String(value);
    } else {
      tree[`@_${key}`] = String(value);
    }
  }
  return tree;
}

/** Drops the members without a value, so JSON and XML carry the same ones. */
function toJson(node: SubsonicNode): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (value === undefined || value === null) continue;
    if (Array.isArray(value)) {
      out[key] = value.map((item) => (typeof item === "object" ? toJson(item) : item));
    } else out[key] = typeof value === "object" ? toJson(value) : value;
  }
  return out;
}

/** `subsonic-response` with the members every answer carries, in the format asked. */
export function envelope(format: Format, body: SubsonicNode, failed = false): Response {
  const head = {
    status: failed ? "failed" : "ok",
    version: SUBSONIC_VERSION,
    type: SERVER_TYPE,
    serverVersion,
    openSubsonic: true,
  };
  // Answers differ by credential and by call: no shared cache may keep one.
  const headers = { "cache-control": "private, no-store" };
  if (format.kind === "xml") {
    const root = { "@_xmlns": NAMESPACE, ...toXmlTree({ ...head, ...body }) };
    const xml = builder.build({ "subsonic-response": root }) as string;
    return new Response(`<?xml version="1.0" encoding="UTF-8"?>${xml}`, {
      headers: { ...headers, "content-type": "application/xml; charset=utf-8" },
    });
  }
  const json = JSON.stringify({ "subsonic-response": toJson({ ...head, ...body }) });
  if (format.kind === "jsonp") {
    return new Response(`${format.callback}(${json});`, {
      headers: { ...headers, "content-type": "application/javascript; charset=utf-8" },
    });
  }
  return new Response(json, {
    headers: { ...headers, "content-type": "application/json; charset=utf-8" },
  });
}

/** An error as the protocol answers it: HTTP 200, status "failed", its code and message. */
export const errorEnvelope = (format: Format, error: SubsonicError) =>
  envelope(format, { error: { code: error.code, message: error.message } }, true);
