import { createRoute, z } from "@hono/zod-openapi";
import type { Context } from "hono";
import type { AppEnv } from "../../../app-env.ts";
import { NotFoundError } from "../../../errors/app-error.ts";
import { describeError } from "../../../logger.ts";
import { responseHeaders } from "../../../openapi/headers.ts";
import { operationKind } from "../../../openapi/operation-id.ts";
import { problemResponses } from "../../../openapi/problem-responses.ts";
import { newRouter } from "../../../openapi/router.ts";
import type { AccountKind } from "../../../security/account-kinds.ts";
import { bindAccount } from "../../../security/account-kinds.ts";
import {
  clearFlowCookie,
  readFlowCookie,
  setFlowCookie,
  setSessionCookies,
} from "../../../security/cookies.ts";
import { publicRoute } from "../../../security/guard.ts";
import { PENDING_COOKIE, STATE_COOKIE } from "../shared.ts";
import { OAUTH_PROVIDERS, oauthProvider } from "./providers.ts";
import {
  finishOAuth,
  OAUTH_STATE_TTL_SECONDS,
  OAuthFlowError,
  PENDING_TWO_FACTOR_TTL_SECONDS,
  startOAuth,
} from "./service.ts";

const Provider = z.string().openapi({
  param: { name: "provider", in: "path" },
  description: `One of ${OAUTH_PROVIDERS.join(", ")}.`,
  example: "google",
});

/** Both steps set or clear a flow cookie (the state, the pending second factor, the session's). */
const redirect = (description: string) => ({
  description,
  headers: { Location: { schema: { type: "string" as const } }, ...responseHeaders("Set-Cookie") },
});

export function oauthRoutes(kind: AccountKind) {
  const tags = [kind.tag];
  const Kind = operationKind(kind);
  const stateCookie = { name: STATE_COOKIE, path: `${kind.authPath}/oauth`, kind: kind.name };
  const pendingCookie = { name: PENDING_COOKIE, path: kind.authPath, kind: kind.name };

  const start = createRoute({
    method: "get",
    path: "/oauth/{provider}",
    operationId: `start${Kind}OAuth`,
    ...publicRoute(),
    tags,
    summary: "Sign in with an identity provider",
    description:
      "Redirects to the provider (`google` or `facebook`) with `state` and a PKCE S256 challenge, both bound to this browser by a 10-minute signed cookie. 404 for an unknown or unconfigured provider.",
    request: { params: z.object({ provider: Provider }) },
    responses: { 302: redirect("To the provider."), ...problemResponses(404) },
  });

  const callback = createRoute({
    method: "get",
    path: "/oauth/{provider}/callback",
    operationId: `finish${Kind}OAuth`,
    ...publicRoute(),
    tags,
    summary: "Where the provider sends the browser back",
    description:
      "Checks `state`, trades `code` for the profile, and signs in the account linked to this provider identity; else the account with the same email when the provider says it is verified (Google; Facebook does not say so, so its addresses never link), which is then linked — and, if that account's address was never proven (no verification link followed, no completed password reset, no earlier verified sign-in), taken over: its unproven password, sessions, reset and verification links and any 2FA (with its recovery codes) are removed, so a registration made with someone else's address cannot trap its owner; only an account whose address is proven is linked as it is; else a new account without a password. Then it sets the session cookies and redirects to the front end. If the account has 2FA, it sets a 5-minute `pending_2fa` cookie instead and redirects with `?twoFactor=required` (finish with 2fa/complete). Failures redirect to the front end with `?error=access_denied` (the user declined), `invalid_state` (missing or mismatched state: possible CSRF) or `provider_error`.",
    request: {
      params: z.object({ provider: Provider }),
      query: z.object({
        code: z.string().max(2048).optional(),
        state: z.string().max(512).optional(),
        error: z.string().max(256).optional(),
      }),
    },
    responses: { 302: redirect("To the front end."), ...problemResponses(400, 404) },
  });

  const frontEnd = (c: Context<AppEnv>, params: Record<string, string> = {}) => {
    const url = new URL(c.get("env").FRONTEND_URL);
    for (const [key, value] of Object.entries(params)) url.searchParams.set(key, value);
    return c.redirect(url.toString(), 302);
  };

  const provider = (c: Context<AppEnv>, name: string) => {
    const found = oauthProvider(c.get("env"), name);
    if (!found) throw new NotFoundError(`No identity provider named "${name}" is enabled.`);
    return found;
  };

  return newRouter()
    .openapi(start, async (c) => {
      const ctx = bindAccount(c.var.deps, kind);
      const { location, stateToken } = await startOAuth(
        ctx,
        provider(c, c.req.valid("param").provider),
      );
      setFlowCookie(c, ctx.env, stateCookie, stateToken, OAUTH_STATE_TTL_SECONDS);
      return c.redirect(location, 302);
    })
    .openapi(callback, async (c) => {
      const ctx = bindAccount(c.var.deps, kind);
      const found = provider(c, c.req.valid("param").provider);
      const query = c.req.valid("query");
      const stateToken = readFlowCookie(c, ctx.env, stateCookie);
      // Single use: whatever happens next, this browser's state is spent.
      clearFlowCookie(c, ctx.env, stateCookie);
      try {
        const result = await finishOAuth(ctx, found, { ...query, stateToken });
        if (result.status === "two-factor-required") {
          setFlowCookie(
            c,
            ctx.env,
            pendingCookie,
            result.pendingToken,
            PENDING_TWO_FACTOR_TTL_SECONDS,
          );
          return frontEnd(c, { twoFactor: "required", kind: kind.name });
        }
        setSessionCookies(c, ctx, result.tokens);
        return frontEnd(c);
      } catch (error) {
        if (!(error instanceof OAuthFlowError)) throw error;
        ctx.log.warn("oauth sign-in failed", { reason: error.reason, ...describeError(error) });
        return frontEnd(c, { error: error.reason });
      }
    });
}
