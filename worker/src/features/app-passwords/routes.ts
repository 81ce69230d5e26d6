import { createRoute, z } from "@hono/zod-openapi";
import { operationKind } from "../../openapi/operation-id.ts";
import { problemResponses } from "../../openapi/problem-responses.ts";
import { json, jsonBody, newRouter } from "../../openapi/router.ts";
import { type AccountKind, bindAccount } from "../../security/account-kinds.ts";
import { signedIn } from "../../security/guard.ts";
import { IdParams } from "../../validation/common.ts";
import {
  AppPasswordDto,
  AppPasswordInput,
  MAX_APP_PASSWORDS,
  NewAppPasswordDto,
} from "./schema.ts";
import { createAppPassword, deleteAppPassword, listAppPasswords } from "./service.ts";

const ABOUT =
  "App passwords are the credentials of apps that speak the Subsonic protocol (`/rest/<method>`, OpenSubsonic): with the account's username as the password (token `t` + salt `s`, or `p`), or alone as the `apiKey`. They are never a credential of this REST API, and the account's own password is never one of theirs. They end when the account is deleted, when its password is changed or reset, and on \"sign out everywhere\" (`DELETE …/auth/sessions`).";

/** The app passwords of one account kind, under /api/v1/users/me and /api/v1/artists/me. */
export function appPasswordRoutes(kind: AccountKind) {
  const tags = [kind.tag];
  const Kind = operationKind(kind);
  const path = "/me/app-passwords";

  const create = createRoute({
    method: "post",
    path,
    operationId: `create${Kind}AppPassword`,
    tags,
    ...signedIn(kind.name),
    summary: "Make an app password",
    description: `A new app password named \`name\`; its secret is in this answer only (it is stored sealed and cannot be shown again). At most ${MAX_APP_PASSWORDS} per account (409 beyond). ${ABOUT}`,
    request: jsonBody(AppPasswordInput),
    responses: {
      201: json(NewAppPasswordDto, "Made; the secret is shown this once."),
      ...problemResponses(400, 401, 403, 409, 413, 415),
    },
  });

  const list = createRoute({
    method: "get",
    path,
    operationId: `list${Kind}AppPasswords`,
    tags,
    ...signedIn(kind.name),
    summary: "The account's app passwords",
    description: `Every app password of the account, the newest first, by name with when it was made and last used; never the secret. ${ABOUT}`,
    responses: {
      200: json(z.array(AppPasswordDto), "The app passwords."),
      ...problemResponses(401, 403),
    },
  });

  const remove = createRoute({
    method: "delete",
    path: `${path}/{id}`,
    operationId: `delete${Kind}AppPassword`,
    tags,
    ...signedIn(kind.name),
    summary: "End an app password",
    description:
      "Ends one app password at once: the next Subsonic call made with it answers error 40 (or 44 as an API key). 404 for an id that is not an app password of the account.",
    request: { params: IdParams },
    responses: {
      204: { description: "Ended." },
      ...problemResponses(400, 401, 403, 404),
    },
  });

  return newRouter()
    .openapi(create, async (c) => {
      const ctx = bindAccount(c.var.deps, kind);
      const { name } = c.req.valid("json");
      return c.json(await createAppPassword(ctx, c.var.deps.principal, name), 201);
    })
    .openapi(list, async (c) => {
      const ctx = bindAccount(c.var.deps, kind);
      return c.json(await listAppPasswords(ctx, c.var.deps.principal), 200);
    })
    .openapi(remove, async (c) => {
      const ctx = bindAccount(c.var.deps, kind);
      await deleteAppPassword(ctx, c.var.deps.principal, c.req.valid("param").id);
      return c.body(null, 204);
    });
}
