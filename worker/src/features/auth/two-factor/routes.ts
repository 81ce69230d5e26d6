import { createRoute, z } from "@hono/zod-openapi";
import { UnauthorizedError } from "../../../errors/app-error.ts";
import { operationKind } from "../../../openapi/operation-id.ts";
import { problemResponses } from "../../../openapi/problem-responses.ts";
import {
  json,
  jsonBody,
  newRouter,
  optionalJsonBody,
  withHeaders,
} from "../../../openapi/router.ts";
import type { AccountKind } from "../../../security/account-kinds.ts";
import { bindAccount } from "../../../security/account-kinds.ts";
import { clearFlowCookie, readFlowCookie, setSessionCookies } from "../../../security/cookies.ts";
import { publicRoute, signedIn } from "../../../security/guard.ts";
import { EMAIL_LINKS_END } from "../email/service.ts";
import { readPendingTwoFactor } from "../oauth/service.ts";
import { REAUTH_PASSWORD_WHEN_STALE, REAUTH_RULES } from "../reauth.ts";
import {
  accountDto,
  CodeBody,
  ReauthBody,
  ReauthWithCodeBody,
  RecoveryCodesDto,
  SecondFactorBody,
  TwoFactorSetupDto,
} from "../schema.ts";
import { signIn } from "../session/service.ts";
import { PENDING_COOKIE } from "../shared.ts";
import { checkSecondFactor } from "./second-factor.ts";
import {
  disableTwoFactor,
  enableTwoFactor,
  regenerateRecoveryCodes,
  verifyTwoFactor,
} from "./service.ts";

const CODE_LIMITS =
  "Wrong codes answer 401 and are limited (5 per account and 30 per client network, an IPv4 address or an IPv6 /64, in 15 minutes; then 429).";

export function twoFactorRoutes(kind: AccountKind) {
  const tags = [kind.tag];
  const Kind = operationKind(kind);

  const enable = createRoute({
    method: "post",
    path: "/2fa/enable",
    operationId: `enable${Kind}TwoFactor`,
    tags,
    ...signedIn(kind.name),
    summary: "Start setting up 2FA (TOTP)",
    description: `Returns a new secret as a QR code (PNG, base64), as an otpauth:// URI and in base32 for manual entry. 2FA is not active until 2fa/verify accepts a code. Calling it again before verifying replaces the secret. 409 when 2FA is already on. The body may be left out. ${REAUTH_RULES} ${REAUTH_PASSWORD_WHEN_STALE}`,
    request: optionalJsonBody(ReauthBody),
    responses: {
      200: json(TwoFactorSetupDto, "The secret."),
      ...problemResponses(400, 401, 403, 409, 415, 429),
    },
  });

  const verify = createRoute({
    method: "post",
    path: "/2fa/verify",
    operationId: `verify${Kind}TwoFactor`,
    tags,
    ...signedIn(kind.name),
    summary: "Turn 2FA on with a first code",
    description: `A current code from the authenticator turns 2FA on and returns 10 single-use recovery codes (shown only here; 80 bits each). Codes of the previous, current and next 30-second step are accepted, each once. Every other session of the account ends. ${EMAIL_LINKS_END} ${CODE_LIMITS}`,
    request: jsonBody(CodeBody),
    responses: {
      200: json(RecoveryCodesDto, "2FA is on."),
      ...problemResponses(400, 401, 403, 409, 415, 429, 503),
    },
  });

  const disable = createRoute({
    method: "post",
    path: "/2fa/disable",
    operationId: `disable${Kind}TwoFactor`,
    tags,
    ...signedIn(kind.name),
    summary: "Turn 2FA off",
    description: `Needs a current TOTP code (not a recovery code) and, for an account with a password, the password. Removes the secret and the recovery codes; every other session of the account ends. ${EMAIL_LINKS_END} 409 when 2FA is off. ${CODE_LIMITS} ${REAUTH_RULES} ${REAUTH_PASSWORD_WHEN_STALE}`,
    request: jsonBody(ReauthWithCodeBody),
    responses: {
      200: json(z.object({ twoFactorEnabled: z.literal(false) }), "2FA is off."),
      ...problemResponses(400, 401, 403, 409, 415, 429, 503),
    },
  });

  const regenerate = createRoute({
    method: "post",
    path: "/2fa/recovery-codes",
    operationId: `regenerate${Kind}RecoveryCodes`,
    tags,
    ...signedIn(kind.name),
    summary: "New recovery codes",
    description: `Replaces the recovery codes with 10 new ones (shown only here); the old ones stop working. Needs a current TOTP code and, for an account with a password, the password. Every other session of the account ends. ${EMAIL_LINKS_END} 409 when 2FA is off. ${CODE_LIMITS} ${REAUTH_RULES}`,
    request: jsonBody(ReauthWithCodeBody),
    responses: {
      200: json(RecoveryCodesDto, "The new codes."),
      ...problemResponses(400, 401, 403, 409, 415, 429, 503),
    },
  });

  const complete = createRoute({
    method: "post",
    path: "/2fa/complete",
    operationId: `complete${Kind}TwoFactorLogin`,
    ...publicRoute(),
    tags,
    summary: "Finish a sign-in that waits for the second factor",
    description: `After an OAuth sign-in into an account with 2FA, the callback redirects to the front end with \`twoFactor=required\` and a short-lived (5 min) \`pending_2fa\` cookie instead of the session cookies. Send a TOTP or recovery code here to get the session. ${CODE_LIMITS}`,
    request: jsonBody(SecondFactorBody),
    responses: {
      200: withHeaders(json(accountDto(kind), "Signed in."), "Set-Cookie"),
      ...problemResponses(400, 401, 403, 415, 429, 503),
    },
  });

  return newRouter()
    .openapi(enable, async (c) => {
      const ctx = bindAccount(c.var.deps, kind);
      const proof = c.req.valid("json") ?? {};
      return c.json(await enableTwoFactor(ctx, c.var.deps.principal, proof), 200);
    })
    .openapi(verify, async (c) => {
      const { code } = c.req.valid("json");
      return c.json(
        await verifyTwoFactor(bindAccount(c.var.deps, kind), c.var.deps.principal, code),
        200,
      );
    })
    .openapi(disable, async (c) => {
      const ctx = bindAccount(c.var.deps, kind);
      return c.json(await disableTwoFactor(ctx, c.var.deps.principal, c.req.valid("json")), 200);
    })
    .openapi(regenerate, async (c) => {
      const ctx = bindAccount(c.var.deps, kind);
      return c.json(
        await regenerateRecoveryCodes(ctx, c.var.deps.principal, c.req.valid("json")),
        200,
      );
    })
    .openapi(complete, async (c) => {
      const ctx = bindAccount(c.var.deps, kind);
      const pendingCookie = { name: PENDING_COOKIE, path: kind.authPath, kind: kind.name };
      const pending = readFlowCookie(c, ctx.env, pendingCookie);
      if (!pending) throw new UnauthorizedError("No sign-in is waiting for a second factor.");
      const principalId = await readPendingTwoFactor(ctx, pending);
      const proof = await checkSecondFactor(ctx, principalId, c.req.valid("json").code, {
        allowRecoveryCode: true,
        secret: "enabled",
      });
      const { account, tokens } = await signIn(ctx, principalId, proof);
      clearFlowCookie(c, ctx.env, pendingCookie);
      setSessionCookies(c, ctx, tokens);
      return c.json(account as z.infer<ReturnType<typeof accountDto>>, 200);
    });
}
