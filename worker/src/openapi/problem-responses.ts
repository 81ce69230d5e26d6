import { z } from "@hono/zod-openapi";
import { PROBLEM_CONTENT_TYPE } from "../errors/problem.ts";
import { type HeaderName, responseHeaders } from "./headers.ts";

export const FieldErrorSchema = z
  .object({
    path: z.string().openapi({
      example: "json.email",
      description:
        "`<part>.<field>`: the part of the request (`json`, `form`, `query`, `param`, `header`) and the field in it.",
    }),
    message: z.string().openapi({ example: "Invalid email address" }),
    code: z.string().optional().openapi({ example: "invalid_format" }),
  })
  .openapi("FieldError");

export const ProblemSchema = z
  .object({
    type: z.string().openapi({ example: "urn:problem-type:edge-music:validation-failed" }),
    title: z.string().openapi({ example: "Invalid request" }),
    status: z.number().int().openapi({ example: 400 }),
    detail: z.string().openapi({ example: "The request has invalid fields." }),
    code: z.string().openapi({ example: "VALIDATION_FAILED" }),
    requestId: z.string().openapi({ example: "0b6f1c1e-6d2f-4a53-9a39-3a1f3f2b9f10" }),
    errors: z.array(FieldErrorSchema).optional(),
  })
  .passthrough()
  .openapi("Problem", {
    description:
      "RFC 9457 problem details. Every error of the API has this shape and the content type application/problem+json.",
  });

const DESCRIPTIONS: Record<number, string> = {
  400: "Invalid input (`VALIDATION_FAILED`, with `errors` per field) or a malformed body (`MALFORMED_REQUEST`).",
  401: "Missing, expired or invalid credentials.",
  403: "Signed in, but not allowed (wrong account kind, or not the owner).",
  404: "Not found.",
  409: "Conflict with the current state (for example a taken username).",
  413: "The body is larger than the limit.",
  415: "The body's Content-Type is not one the operation takes, or an uploaded file's type is not accepted.",
  416: "The Range is outside the object (Content-Range: bytes */<size>).",
  429: "Too many requests; see Retry-After.",
  501: "The request asks for something the service does not make (`NOT_IMPLEMENTED`).",
  503: "A dependency is unavailable; retry later.",
};

/** Headers a status sends beside the problem (X-Request-Id and Cache-Control: every problem). */
const HEADERS: Record<number, HeaderName[]> = {
  416: ["Content-Range"],
  429: ["Retry-After"],
  503: ["Retry-After"],
};

/** Problem responses for `createRoute({ responses })`; every route lists the statuses it can answer. */
export function problemResponses<S extends number>(...statuses: S[]) {
  return Object.fromEntries(
    statuses.map((status) => [
      status,
      {
        description: DESCRIPTIONS[status] ?? "Error.",
        ...(HEADERS[status] ? { headers: responseHeaders(...(HEADERS[status] ?? [])) } : {}),
        content: { [PROBLEM_CONTENT_TYPE]: { schema: ProblemSchema } },
      },
    ]),
  ) as Record<
    S,
    {
      description: string;
      headers?: Record<string, { $ref: string }>;
      content: { [PROBLEM_CONTENT_TYPE]: { schema: typeof ProblemSchema } };
    }
  >;
}
