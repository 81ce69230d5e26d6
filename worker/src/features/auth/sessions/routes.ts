import { createRoute, z } from "@hono/zod-openapi";
import { operationKind } from "../../../openapi/operation-id.ts";
import { problemResponses } from "../../../openapi/problem-responses.ts";
import { json, newRouter, withHeaders } from "../../../openapi/router.ts";
import type { AccountKind } from "../../../security/account-kinds.ts";
import { bindAccount } from "../../../security/account-kinds.ts";
import { clearSessionCookies } from "../../../security/cookies.ts";
import { signedIn } from "../../../security/guard.ts";
import { IdParams } from "../../../validation/common.ts";
import { APP_PASSWORDS_END } from "../../app-passwords/service.ts";
import { EMAIL_LINKS_END } from "../email/service.ts";
import { SessionDto } from "../schema.ts";
import { endOtherSessions, endOwnSession, listSessions } from "./service.ts";

export function sessionControlRoutes(kind: AccountKind) {
  const tags = [kind.tag];
  const Kind = operationKind(kind);

  const list = createRoute({
    method: "get",
    path: "/sessions",
    operationId: `list${Kind}Sessions`,
    tags,
    ...signedIn(kind.name),
    summary: "The account's sessions",
    description:
      "Every live session of the account (signed in and not ended or expired), the most recently used first: when it started, when it was last used (its last sign-in or token refresh: an active session refreshes every 5 minutes, so this is at most that much behind), a coarse description of the device from the user agent it started with, and `current: true` for the caller's own.",
    responses: {
      200: json(z.array(SessionDto), "The sessions."),
      ...problemResponses(401, 403),
    },
  });

  const endOne = createRoute({
    method: "delete",
    path: "/sessions/{id}",
    operationId: `end${Kind}Session`,
    tags,
    ...signedIn(kind.name),
    summary: "End one session",
    description:
      "Ends one of the account's sessions: its next request answers 401 at once. Ending the caller's own session signs it out (the cookies are cleared). 404 for an id that is not a session of the account.",
    request: { params: IdParams },
    responses: {
      204: withHeaders({ description: "Ended." }, "Set-Cookie"),
      ...problemResponses(400, 401, 403, 404),
    },
  });

  const endOthers = createRoute({
    method: "delete",
    path: "/sessions",
    operationId: `endOther${Kind}Sessions`,
    tags,
    ...signedIn(kind.name),
    summary: "End every other session",
    description: `Ends every session of the account except the caller's (sign out everywhere else). Their next requests answer 401 at once. ${EMAIL_LINKS_END} ${APP_PASSWORDS_END}`,
    responses: {
      200: json(
        z.object({ ended: z.number().int().min(0).describe("How many sessions ended.") }),
        "Ended.",
      ),
      ...problemResponses(401, 403),
    },
  });

  return newRouter()
    .openapi(list, async (c) => {
      const ctx = bindAccount(c.var.deps, kind);
      return c.json(await listSessions(ctx, c.var.deps.principal), 200);
    })
    .openapi(endOne, async (c) => {
      const ctx = bindAccount(c.var.deps, kind);
      const { id } = c.req.valid("param");
      await endOwnSession(ctx, c.var.deps.principal, id);
      if (id === c.var.deps.principal.sessionId) clearSessionCookies(c, ctx);
      return c.body(null, 204);
    })
    .openapi(endOthers, async (c) => {
      const ctx = bindAccount(c.var.deps, kind);
      return c.json({ ended: await endOtherSessions(ctx, c.var.deps.principal) }, 200);
    });
}
