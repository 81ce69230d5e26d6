import { createRoute, type z } from "@hono/zod-openapi";
import type { Context } from "hono";
import { problemResponses } from "../../openapi/problem-responses.ts";
import { json, jsonBody, newRouter, withHeaders } from "../../openapi/router.ts";
import { ACCOUNT_KINDS, bindAccount } from "../../security/account-kinds.ts";
import { clearSessionCookies } from "../../security/cookies.ts";
import { signedIn } from "../../security/guard.ts";
import { REAUTH_CODE_WHEN_ENABLED, REAUTH_RULES } from "../auth/reauth.ts";
import { ReauthWithOptionalCodeBody, UserDto } from "../auth/schema.ts";
import { ArtistExport, UserExport, UserProfileUpdate } from "./schema.ts";
import { deleteUser, exportArtist, exportUser, updateUserProfile } from "./service.ts";

const kind = ACCOUNT_KINDS.user;

/** An export is a download of personal data: an attachment, never stored by any cache. */
const asAttachment = (c: Context) => {
  c.header("cache-control", "no-store");
  c.header("content-disposition", 'attachment; filename="edge-music-export.json"');
};

const remove = createRoute({
  method: "delete",
  path: "/me",
  operationId: "deleteMyUserAccount",
  tags: [kind.tag],
  ...signedIn("user"),
  summary: "Delete the account",
  description: `Deletes the listener's account and everything personal with it at once: sessions (every one of them ends), 2FA, app passwords (the Subsonic apps are signed out), history, likes, follows, playlists and their covers. It cannot be undone. ${REAUTH_RULES} ${REAUTH_CODE_WHEN_ENABLED} The cookies are cleared.`,
  request: jsonBody(ReauthWithOptionalCodeBody),
  responses: {
    204: withHeaders({ description: "Deleted." }, "Set-Cookie"),
    ...problemResponses(400, 401, 403, 415, 429, 503),
  },
});

const exported = createRoute({
  method: "get",
  path: "/me/export",
  operationId: "exportMyUserData",
  tags: [kind.tag],
  ...signedIn("user"),
  summary: "Everything the service holds about you",
  description:
    "The account (never its password hash, 2FA secret or recovery codes: the service holds those only sealed or one-way), its sessions, the whole listening history, playlists with their tracks, likes (of tracks, albums, artists and playlists) and follows, the ratings and the song now playing that apps sent, the app passwords by name and times (never their secrets), as one JSON document (GDPR articles 15 and 20). Answered as an attachment, never cached.",
  responses: {
    200: json(UserExport, "The data."),
    ...problemResponses(401, 403),
  },
});

const profile = createRoute({
  method: "patch",
  path: "/me",
  operationId: "updateMyUserProfile",
  tags: [kind.tag],
  ...signedIn("user"),
  summary: "Set the display name",
  description:
    "JSON `{displayName}`: the name others see with the listener's public playlists (spaces and any script), trimmed and Unicode-normalised (NFC), inner whitespace collapsed, 1–50 characters without control or invisible characters; null removes it. Without one, a public playlist shows no owner name (a listener's username may come from their email address). Answers the account, as GET /users/me.",
  request: jsonBody(UserProfileUpdate),
  responses: {
    200: json(UserDto, "The account."),
    ...problemResponses(400, 401, 403, 413, 415),
  },
});

export const userAccountRoutes = newRouter()
  .openapi(profile, async (c) => {
    const ctx = bindAccount(c.var.deps, kind);
    const { displayName } = c.req.valid("json");
    return c.json(
      (await updateUserProfile(ctx, c.var.deps.principal, displayName)) as z.infer<typeof UserDto>,
      200,
    );
  })
  .openapi(remove, async (c) => {
    const ctx = bindAccount(c.var.deps, kind);
    await deleteUser(ctx, c.var.deps.principal, c.req.valid("json"));
    clearSessionCookies(c, ctx);
    return c.body(null, 204);
  })
  .openapi(exported, async (c) => {
    const ctx = bindAccount(c.var.deps, kind);
    asAttachment(c);
    return c.json(await exportUser(ctx, c.var.deps.principal), 200);
  });

const artistKind = ACCOUNT_KINDS.artist;

const artistExport = createRoute({
  method: "get",
  path: "/me/export",
  operationId: "exportMyArtistData",
  tags: [artistKind.tag],
  ...signedIn("artist"),
  summary: "Everything the service holds about you",
  description:
    "The account (never its password hash, 2FA secret or recovery codes), its sessions, every track in every state with its processing record, its albums, how many listeners follow and like it (who they are is their data), and its app passwords by name and times (never their secrets), as one JSON document (GDPR articles 15 and 20). Answered as an attachment, never cached.",
  responses: {
    200: json(ArtistExport, "The data."),
    ...problemResponses(401, 403),
  },
});

export const artistAccountRoutes = newRouter().openapi(artistExport, async (c) => {
  const ctx = bindAccount(c.var.deps, artistKind);
  asAttachment(c);
  return c.json(await exportArtist(ctx, c.var.deps.principal), 200);
});
