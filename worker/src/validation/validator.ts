import { zValidator } from "@hono/zod-validator";
import type { Context, ValidationTargets } from "hono";
import type { ZodType } from "zod";
import { type FieldError, ValidationError } from "../errors/app-error.ts";

/** Turns zod issues into our field errors; the raw zod result never reaches a client. */
interface IssueList {
  issues: ReadonlyArray<{ path: ReadonlyArray<PropertyKey>; message: string; code?: string }>;
}

export function toValidationError(error: IssueList, target: string): ValidationError {
  const errors: FieldError[] = error.issues.map((issue) => ({
    path: [target, ...issue.path.map(String)].join("."),
    message: issue.message,
    ...(issue.code ? { code: issue.code } : {}),
  }));
  return new ValidationError(errors);
}

type HookResult = { success: true } | { success: false; error: IssueList; target?: string };

/** The one validation hook: used by `validator()` and as OpenAPIHono's `defaultHook`. */
export function validationHook(result: HookResult, _c: Context): undefined {
  if (!result.success) throw toValidationError(result.error, result.target ?? "request");
  return undefined;
}

/** `@hono/zod-validator` that throws our ValidationError (for routes outside the OpenAPI helpers). */
export function validator<Target extends keyof ValidationTargets, Schema extends ZodType>(
  target: Target,
  schema: Schema,
) {
  return zValidator(target, schema, (result) => {
    if (!result.success) throw toValidationError(result.error, target);
  });
}
