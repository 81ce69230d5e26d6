import { createRoute, z } from "@hono/zod-openapi";
import { operationKind } from "../../../openapi/operation-id.ts";
import { problemResponses } from "../../../openapi/problem-responses.ts";
import { json, jsonBody, newRouter, withHeaders } from "../../../openapi/router.ts";
import type { AccountKind } from "../../../security/account-kinds.ts";
import { bindAccount } from "../../../security/account-kinds.ts";
import {
  ACCESS_COOKIE,
  clearSessionCookies,
  REFRESH_COOKIE,
  readCookieValues,
  readSessionCookie,
  setSessionCookies,
} from "../../../security/cookies.ts";
import { publicRoute, signedIn } from "../../../security/guard.ts";
import { endSession, REFRESH_GRACE_SECONDS, rotateSession } from "../../../security/sessions.ts";
import { ACCESS_TTL_SECONDS, isSessionClaims, verifyToken } from "../../../security/tokens.ts";
import {
  accountDto,
  LoginBody,
  RefreshDto,
  RegisterBody,
  TwoFactorRequiredDto,
} from "../schema.ts";
import type { AuthContext } from "../shared.ts";
import { getAccount, login, register } from "./service.ts";

const COOKIES =
  "Sets `access_token` (5 minutes) and `refresh_token` (30 days) as HttpOnly, SameSite=Lax cookies (Secure unless the service runs on http://localhost). A session lasts at most 30 days from sign-in, and ends sooner when unused (no refresh) for 14 days.";

export function sessionRoutes(kind: AccountKind) {
  const tags = [kind.tag];
  const Kind = operationKind(kind);
  const Account = accountDto(kind);

  const registerRoute = createRoute({
    method: "post",
    path: "/register",
    operationId: `register${Kind}`,
    ...publicRoute(),
    tags,
    summary: `Register ${kind.aName}`,
    description: `Username: 3–30 letters, digits, \`_\`, \`.\`, \`-\` (unique, case-insensitive). Email: unique, stored lower-case. Password: 8–128 characters, not one of the 10,000 most common (NIST SP 800-63B; compared after Unicode NFKC normalisation, ignoring case), and not made only of this service's own words (edge, music, stream, …) with digits and symbols. ${COOKIES}`,
    request: jsonBody(RegisterBody),
    responses: {
      201: withHeaders(json(Account, "Registered and signed in."), "Set-Cookie"),
      ...problemResponses(400, 403, 409, 413, 415, 429),
    },
  });

  const LoginAnswer = z.union([
    z.object({ requiresTwoFactor: z.literal(false), account: Account }),
    TwoFactorRequiredDto,
  ]);
  const loginRoute = createRoute({
    method: "post",
    path: "/login",
    operationId: `login${Kind}`,
    ...publicRoute(),
    tags,
    summary: "Sign in",
    description: `${COOKIES} For an account with 2FA, the first answer is \`{requiresTwoFactor: true}\` without cookies; send the same body again with \`code\`. Failed sign-ins are limited per client network (an IPv4 address, an IPv6 /64): 50 per 15 minutes in all (an IPv6 /56 100, a /48 200), and against one account 10 per 15 minutes, fewer (3, then 1) once that account has had more than 20 (then 100) failures from everywhere; the same allowance against the account holds for an IPv6 client's /56 and /48 as a whole, so rotating through the 65,536 /64s of a /48 gains nothing; then 429 with Retry-After. A code is counted against the code limits only once the password is right (5 wrong codes per account in 15 minutes, then 429), so whoever does not know the password cannot use up the owner's codes. A network with no failures against the account is always judged, so guessing never locks the owner out; the answers are the same whether the account exists or not.`,
    request: jsonBody(LoginBody),
    responses: {
      200: withHeaders(
        json(LoginAnswer, "Signed in, or the second factor is needed."),
        "Set-Cookie",
      ),
      ...problemResponses(400, 401, 403, 415, 429, 503),
    },
  });

  const refreshRoute = createRoute({
    method: "post",
    path: "/refresh",
    operationId: `refresh${Kind}Session`,
    ...publicRoute(),
    tags,
    summary: "Rotate the session's tokens",
    description: `Reads the \`refresh_token\` cookie and sets both cookies anew. The refresh token used stops working. Two tabs that refresh with the same token at the same moment both succeed: the token the last rotation replaced, presented again within ${REFRESH_GRACE_SECONDS} seconds of that rotation, gets the current pair (no new rotation), once: presented a third time, it revokes the session like any replay. Any other refresh token that was already used revokes the whole session (401), since only a copy could still hold it.`,
    responses: {
      200: withHeaders(json(RefreshDto, "New cookies are set."), "Set-Cookie"),
      ...problemResponses(403),
      // A refused refresh clears both cookies.
      401: withHeaders(problemResponses(401)[401], "Set-Cookie"),
    },
  });

  const logoutRoute = createRoute({
    method: "post",
    path: "/logout",
    operationId: `logout${Kind}`,
    ...publicRoute(),
    tags,
    summary: "Sign out",
    description:
      "Deletes the session named by the access or the refresh cookie (its tokens stop working at once) and clears both cookies. Answers 204 even without a session.",
    responses: {
      204: withHeaders({ description: "Signed out." }, "Set-Cookie"),
      ...problemResponses(403),
    },
  });

  return newRouter()
    .openapi(registerRoute, async (c) => {
      const ctx = bindAccount(c.var.deps, kind);
      const { account, tokens } = await register(ctx, c.req.valid("json"));
      setSessionCookies(c, ctx, tokens);
      return c.json(account as z.infer<typeof Account>, 201);
    })
    .openapi(loginRoute, async (c) => {
      const ctx = bindAccount(c.var.deps, kind);
      const result = await login(ctx, c.req.valid("json"));
      if (result.status === "two-factor-required") {
        return c.json({ requiresTwoFactor: true as const }, 200);
      }
      setSessionCookies(c, ctx, result.tokens);
      return c.json(
        { requiresTwoFactor: false as const, account: result.account as z.infer<typeof Account> },
        200,
      );
    })
    .openapi(refreshRoute, async (c) => {
      const ctx = bindAccount(c.var.deps, kind);
      // Read before the try: a duplicate (tossed) cookie must not make us clear our own one.
      const refreshToken = readSessionCookie(c, REFRESH_COOKIE);
      try {
        const tokens = await rotateSession(ctx, refreshToken);
        setSessionCookies(c, ctx, tokens);
      } catch (error) {
        clearSessionCookies(c, ctx);
        throw error;
      }
      const expiresAt = new Date(ctx.now.getTime() + ACCESS_TTL_SECONDS * 1000);
      return c.json({ accessTokenExpiresAt: expiresAt.toISOString() }, 200);
    })
    .openapi(logoutRoute, async (c) => {
      const ctx = bindAccount(c.var.deps, kind);
      // Every value, not the first: a cookie tossed beside ours must not save our session.
      const sessionIds = await presentedSessions(ctx, [
        ...readCookieValues(c, ACCESS_COOKIE).map((token) => ["access", token] as const),
        ...readCookieValues(c, REFRESH_COOKIE).map((token) => ["refresh", token] as const),
      ]);
      for (const sessionId of sessionIds) await endSession(ctx, sessionId);
      clearSessionCookies(c, ctx);
      return c.body(null, 204);
    })
    .route("/", meRoutes(kind, `getSignedIn${Kind}`));
}

/**
 * GET /me: under each kind's auth routes, and as /api/v1/users/me for API clients; each mount
 * names its own operation.
 */
export function meRoutes(kind: AccountKind, operationId: string) {
  const Account = accountDto(kind);
  const meRoute = createRoute({
    method: "get",
    path: "/me",
    operationId,
    tags: [kind.tag],
    ...signedIn(kind.name),
    summary: `The signed-in ${kind.name}`,
    responses: { 200: json(Account, "The account."), ...problemResponses(401, 403) },
  });
  return newRouter().openapi(meRoute, async (c) => {
    const account = await getAccount(bindAccount(c.var.deps, kind), c.var.deps.principal.id);
    return c.json(account as z.infer<typeof Account>, 200);
  });
}

/**
 * The sessions a sign-out means: those named by any valid access or refresh token presented (an
 * expired access token must not keep anyone from signing out). Expiry is ignored: a token past
 * its lifetime still names its session, and ending a session whose signed token one holds is
 * always safe.
 */
async function presentedSessions(
  ctx: AuthContext,
  candidates: ReadonlyArray<readonly ["access" | "refresh", string]>,
): Promise<Set<string>> {
  const sessionIds = new Set<string>();
  for (const [type, token] of candidates) {
    if (!token) continue;
    const claims = await verifyToken(ctx.env.JWT_SECRET, type, token, new Date(0)).catch(
      () => null,
    );
    if (claims && isSessionClaims(claims) && claims.kind === ctx.account.name)
      sessionIds.add(claims.sid);
  }
  return sessionIds;
}
