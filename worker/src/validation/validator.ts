import type { Context } from "hono";
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

/** The one validation hook: OpenAPIHono's `defaultHook` for every router. */
export function validationHook(result: HookResult, _c: Context): undefined {
  if (!result.success) throw toValidationError(result.error, result.target ?? "request");
  return undefined;
}
