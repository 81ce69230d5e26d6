import { createRoute, z } from "@hono/zod-openapi";
import { operationKind } from "../../../openapi/operation-id.ts";
import { problemResponses } from "../../../openapi/problem-responses.ts";
import { json, jsonBody, newRouter } from "../../../openapi/router.ts";
import type { AccountKind } from "../../../security/account-kinds.ts";
import { bindAccount } from "../../../security/account-kinds.ts";
import { publicRoute, signedIn } from "../../../security/guard.ts";
import { REAUTH_CODE_WHEN_ENABLED, REAUTH_RULES } from "../reauth.ts";
import { Email, MessageDto, ReauthWithOptionalCodeBody } from "../schema.ts";
import { requestEmailChange, resendVerification, verifyEmail } from "./service.ts";

const VerifyBody = z
  .object({ token: z.string().trim().min(16).max(256) })
  .openapi("EmailVerifyRequest");

const ChangeBody = ReauthWithOptionalCodeBody.extend({
  email: Email.openapi({ description: "The new address.", example: "alice@example.org" }),
}).openapi("EmailChangeRequest");

const Verified = z
  .object({
    email: z.string().openapi({ description: "The account's address now." }),
    emailVerified: z.literal(true),
  })
  .openapi("EmailVerified");

export function emailRoutes(kind: AccountKind) {
  const tags = [kind.tag];
  const Kind = operationKind(kind);

  const verify = createRoute({
    method: "post",
    path: "/email/verify",
    operationId: `verify${Kind}Email`,
    ...publicRoute(),
    tags,
    summary: "Verify the account's email address",
    description:
      "With the token of a mailed link, valid 24 hours and once. A link mailed at registration (or by `email/verify/resend`) marks the account's address verified (`emailVerified: true` in `me`). A link mailed by `email/change` moves the account to the new address, verified, mails a notice to the old one, and ends every other link of the account (verification and password reset), since those went to the old address; sessions stay. Needs no session: the link may be opened on any device. A token that is invalid, used, expired, or for an address the account no longer has answers 400 (`errors[0].code` = `invalid_token`); 409 when another account took the new address meanwhile.",
    request: jsonBody(VerifyBody),
    responses: {
      200: json(Verified, "Done."),
      ...problemResponses(400, 403, 409, 415),
    },
  });

  const resend = createRoute({
    method: "post",
    path: "/email/verify/resend",
    operationId: `resend${Kind}EmailVerification`,
    tags,
    ...signedIn(kind.name),
    summary: "Mail a new verification link",
    description:
      "Mails a new link to the account's address (earlier links stay valid until they expire). At most 3 an hour (then 429); 409 when the address is already verified.",
    responses: {
      202: json(MessageDto, "On its way."),
      ...problemResponses(401, 403, 409, 429),
    },
  });

  const change = createRoute({
    method: "post",
    path: "/email/change",
    operationId: `change${Kind}Email`,
    tags,
    ...signedIn(kind.name),
    summary: "Change the account's email address",
    description: `Mails a link to the new address; the account moves to it only when the link comes back (\`email/verify\`), and a notice goes to the current address at once and again on the change. Until then the current address stays in use. 400 \`same_email\` for the account's own address; 409 when another account of this kind has the address; at most 5 requests an hour, refused ones included (then 429). ${REAUTH_RULES} ${REAUTH_CODE_WHEN_ENABLED}`,
    request: jsonBody(ChangeBody),
    responses: {
      202: json(MessageDto, "On its way to the new address."),
      ...problemResponses(400, 401, 403, 409, 415, 429, 503),
    },
  });

  return newRouter()
    .openapi(verify, async (c) => {
      const ctx = bindAccount(c.var.deps, kind);
      return c.json(await verifyEmail(ctx, c.req.valid("json").token), 200);
    })
    .openapi(resend, async (c) => {
      const ctx = bindAccount(c.var.deps, kind);
      return c.json(await resendVerification(ctx, c.var.deps.principal), 202);
    })
    .openapi(change, async (c) => {
      const ctx = bindAccount(c.var.deps, kind);
      return c.json(await requestEmailChange(ctx, c.var.deps.principal, c.req.valid("json")), 202);
    });
}
