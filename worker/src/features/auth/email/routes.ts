import { createRoute, z } from "@hono/zod-openapi";
import { problemResponses } from "../../../openapi/problem-responses.ts";
import { json, jsonBody, newRouter } from "../../../openapi/router.ts";
import type { AccountKind } from "../../../security/account-kinds.ts";
import { bindAccount } from "../../../security/account-kinds.ts";
import { signedIn } from "../../../security/guard.ts";
import { MessageDto } from "../schema.ts";
import { resendVerification, verifyEmail } from "./service.ts";

const VerifyBody = z
  .object({ token: z.string().trim().min(16).max(256) })
  .openapi("EmailVerifyRequest");

export function emailRoutes(kind: AccountKind) {
  const tags = [kind.tag];

  const verify = createRoute({
    method: "post",
    path: "/email/verify",
    tags,
    summary: "Verify the account's email address",
    description:
      "With the token of the link mailed at registration (or by `email/verify/resend`), valid 24 hours and once: the account's address counts as verified (`emailVerified: true` in `me`). Needs no session: the link may be opened on any device. A token that is invalid, used, expired, or for an address the account no longer has answers 400 (`errors[0].code` = `invalid_token`).",
    request: jsonBody(VerifyBody),
    responses: {
      200: json(z.object({ emailVerified: z.literal(true) }), "Verified."),
      ...problemResponses(400, 403),
    },
  });

  const resend = createRoute({
    method: "post",
    path: "/email/verify/resend",
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

  return newRouter()
    .openapi(verify, async (c) => {
      const ctx = bindAccount(c.var.deps, kind);
      return c.json(await verifyEmail(ctx, c.req.valid("json").token), 200);
    })
    .openapi(resend, async (c) => {
      const ctx = bindAccount(c.var.deps, kind);
      return c.json(await resendVerification(ctx, c.var.deps.principal), 202);
    });
}
