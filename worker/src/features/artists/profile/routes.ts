import { createRoute } from "@hono/zod-openapi";
import { isMultipart } from "../../../file-input/form.ts";
import { IMAGE_MAX_BYTES, readUpdate } from "../../../images/images.ts";
import { EDGE, edgeCached } from "../../../middleware/edge-cache.ts";
import { ownerUpdateRoute } from "../../../openapi/owner-routes.ts";
import { problemResponses } from "../../../openapi/problem-responses.ts";
import { json, newRouter, optionalJsonBody, withHeaders } from "../../../openapi/router.ts";
import { ACCOUNT_KINDS, bindAccount } from "../../../security/account-kinds.ts";
import { clearSessionCookies } from "../../../security/cookies.ts";
import { assertOwner, maybeSignedIn, publicRoute, signedIn } from "../../../security/guard.ts";
import { PageQuery } from "../../../validation/common.ts";
import { REAUTH_CODE_WHEN_ENABLED, REAUTH_RULES, reauthenticate } from "../../auth/reauth.ts";
import { ReauthWithOptionalCodeBody } from "../../auth/schema.ts";
import {
  ArtistDto,
  ArtistIdParams,
  ArtistListItemDto,
  ArtistUpdateForm,
  ArtistUpdateJson,
  ArtistWithViewerDto,
  UsernameParams,
} from "./schema.ts";
import { deleteArtist, getArtist, listArtists, updateArtist } from "./service.ts";

const tags = ["Artists"];

const list = createRoute({
  method: "get",
  path: "/",
  operationId: "listArtists",
  tags,
  summary: "List artists",
  ...edgeCached(
    publicRoute(),
    EDGE.catalogue,
    "Newest first, paginated. Each item also carries `_count.followers`.",
  ),
  request: { query: PageQuery },
  responses: {
    200: json(ArtistListItemDto.array(), "A page of artists."),
    ...problemResponses(400),
  },
});

const VIEWER =
  "Sign-in is optional: a signed-in user (listener) also gets `viewer: {following, liked}`, their own relation to the artist, read with the profile in the same statement; anonymous callers and artists get no `viewer`. Without an `access_token` cookie the caller is anonymous; a cookie that is present but invalid, expired or of an ended session is 401 (refresh, then retry). Only anonymous answers come from or go to the edge cache, so an answer with `viewer` is never shared.";

const byId = createRoute({
  method: "get",
  path: "/{id}",
  operationId: "getArtist",
  tags,
  summary: "An artist by id",
  ...edgeCached(
    maybeSignedIn(),
    EDGE.catalogue,
    `The artist's public profile, with \`_count.followers\` and \`_count.likes\`. ${VIEWER}`,
  ),
  request: { params: ArtistIdParams },
  responses: { 200: json(ArtistWithViewerDto, "The artist."), ...problemResponses(400, 401, 404) },
});

const byUsername = createRoute({
  method: "get",
  path: "/by-username/{username}",
  operationId: "getArtistByUsername",
  tags,
  summary: "An artist by username",
  ...edgeCached(
    maybeSignedIn(),
    EDGE.catalogue,
    `The artist's public profile, with \`_count.followers\` and \`_count.likes\`; the username is matched case-insensitively. ${VIEWER}`,
  ),
  request: { params: UsernameParams },
  responses: { 200: json(ArtistWithViewerDto, "The artist."), ...problemResponses(400, 401, 404) },
});

// Two images of 5 MB plus the text fields and multipart framing.
const UPDATE_LIMIT = 2 * IMAGE_MAX_BYTES + 64 * 1024;

const update = ownerUpdateRoute({
  operationId: "updateArtist",
  kind: "artist",
  tags,
  summary: "Update the own profile",
  description:
    "JSON `{username?, displayName?, bio?}`, or multipart/form-data with the same fields plus `avatar` and/or `backgroundImage` files (PNG, JPEG or WebP recognised by content, ≤ 5 MB each). At least one field. Username rules as at registration; a taken username answers 409. `displayName`: the name shown to people (spaces and any script), trimmed and Unicode-normalised (NFC), inner whitespace collapsed, 1–50 characters without control or invisible characters; null (in multipart: an empty value) removes it. It need not be unique; search finds the artist by it. Images get new `/static/avatars/…` and `/static/backgrounds/…` paths; the replaced ones are deleted.",
  params: ArtistIdParams,
  body: { json: ArtistUpdateJson, form: ArtistUpdateForm, limit: UPDATE_LIMIT },
  answer: { schema: ArtistDto, description: "The updated profile." },
  alsoAnswers: [409],
});

const remove = createRoute({
  method: "delete",
  path: "/{id}",
  operationId: "deleteMyArtistAccount",
  tags,
  ...signedIn("artist"),
  summary: "Delete the own account",
  description: `Deletes the account with its sessions, tracks (with their files, playlist entries and listens), albums, follows and likes, and the tracks' conversion jobs, aborts its direct uploads in progress (their part URLs take nothing from then on), and signs out. Objects in storage are deleted right after the response; nothing of the account is reachable from then on. Another artist's id answers 403 before anything else. ${REAUTH_RULES} ${REAUTH_CODE_WHEN_ENABLED}`,
  request: { params: ArtistIdParams, ...optionalJsonBody(ReauthWithOptionalCodeBody) },
  responses: {
    204: withHeaders({ description: "Deleted." }, "Set-Cookie"),
    ...problemResponses(400, 401, 403, 404, 415, 429, 503),
  },
});

export const artistProfileRoutes = newRouter()
  .openapi(list, async (c) => c.json(await listArtists(c.var.deps, c.req.valid("query")), 200))
  .openapi(byUsername, async (c) => c.json(await getArtist(c.var.deps, c.req.valid("param")), 200))
  .openapi(byId, async (c) => c.json(await getArtist(c.var.deps, c.req.valid("param")), 200))
  .openapi(update, async (c) => {
    const { id } = c.req.valid("param");
    assertOwner(c.var.deps.principal, id, "profile");
    const form = isMultipart(c) ? c.req.valid("form") : undefined;
    const { username, displayName, bio } = form ?? c.req.valid("json");
    const input = await readUpdate({ username, displayName, bio }, form, [
      "avatar",
      "backgroundImage",
    ]);
    return c.json(await updateArtist(c.var.deps, id, input), 200);
  })
  .openapi(remove, async (c) => {
    const { id } = c.req.valid("param");
    assertOwner(c.var.deps.principal, id, "account");
    const ctx = bindAccount(c.var.deps, ACCOUNT_KINDS.artist);
    const reauth = await reauthenticate(ctx, c.var.deps.principal, c.req.valid("json") ?? {}, {
      codeWhenEnabled: true,
    });
    await deleteArtist(c.var.deps, id, reauth);
    clearSessionCookies(c, { env: c.var.env, account: ACCOUNT_KINDS.artist });
    return c.body(null, 204);
  });
