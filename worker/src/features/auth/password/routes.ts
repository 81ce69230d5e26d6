import { createRoute } from "@hono/zod-openapi";
import { operationKind } from "../../../openapi/operation-id.ts";
import { problemResponses } from "../../../openapi/problem-responses.ts";
import { json, jsonBody, newRouter } from "../../../openapi/router.ts";
import type { AccountKind } from "../../../security/account-kinds.ts";
import { bindAccount } from "../../../security/account-kinds.ts";
import { publicRoute, signedIn } from "../../../security/guard.ts";
import { APP_PASSWORDS_END } from "../../app-passwords/service.ts";
import { EMAIL_LINKS_END } from "../email/service.ts";
import { ChangePasswordBody, ForgotBody, MessageDto, ResetBody } from "../schema.ts";
import { changePassword, forgotPassword, resetPassword } from "./service.ts";

export function passwordRoutes(kind: AccountKind) {
  const tags = [kind.tag];
  const Kind = operationKind(kind);

  const forgot = createRoute({
    method: "post",
    path: "/password/forgot",
    operationId: `request${Kind}PasswordReset`,
    ...publicRoute(),
    tags,
    summary: "Ask for a password reset link",
    description:
      "Answers 202 with the same body whether or not an account has this email. When it has, a single-use token valid for 1 hour is mailed (or, without mail configured, written to the service log). Limited to 3 requests per email and 20 per client network (an IPv4 address, an IPv6 /64) per hour (then 429).",
    request: jsonBody(ForgotBody),
    responses: { 202: json(MessageDto, "Accepted."), ...problemResponses(400, 403, 415, 429) },
  });

  const reset = createRoute({
    method: "post",
    path: "/password/reset",
    operationId: `reset${Kind}Password`,
    ...publicRoute(),
    tags,
    summary: "Set a new password with a reset token",
    description: `Sets the password (same rules as registration), ends every session of the account and invalidates its other reset links. ${EMAIL_LINKS_END} ${APP_PASSWORDS_END} It does not sign in. An invalid, used or expired token answers 400 (\`errors[0].code\` = \`invalid_token\`).`,
    request: jsonBody(ResetBody),
    responses: { 200: json(MessageDto, "Changed."), ...problemResponses(400, 403, 415) },
  });

  const change = createRoute({
    method: "post",
    path: "/password/change",
    operationId: `change${Kind}Password`,
    tags,
    ...signedIn(kind.name),
    summary: "Change the password",
    description: `Needs the current password. A wrong one counts as a failed sign-in (the login limits, per client network: see login; then 429) and answers 400 with \`errors[0].code\` = \`wrong_password\`. The new password follows the registration rules and must differ from the current one (\`same_password\`). On success every other session of the account ends (the caller's stays) and a notice is mailed to the account's address. ${EMAIL_LINKS_END} ${APP_PASSWORDS_END} 409 for an account that signs in only through an identity provider (it has no password; \`password/forgot\` sets one).`,
    request: jsonBody(ChangePasswordBody),
    responses: {
      200: json(MessageDto, "Changed."),
      ...problemResponses(400, 401, 403, 409, 415, 429, 503),
    },
  });

  return newRouter()
    .openapi(forgot, async (c) => {
      return c.json(
        await forgotPassword(bindAccount(c.var.deps, kind), c.req.valid("json").email),
        202,
      );
    })
    .openapi(reset, async (c) => {
      const { token, password } = c.req.valid("json");
      return c.json(await resetPassword(bindAccount(c.var.deps, kind), token, password), 200);
    })
    .openapi(change, async (c) => {
      const ctx = bindAccount(c.var.deps, kind);
      return c.json(await changePassword(ctx, c.var.deps.principal, c.req.valid("json")), 200);
    });
}
