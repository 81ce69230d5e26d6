import { createRoute } from "@hono/zod-openapi";
import { requireUser } from "../../../auth/guard.ts";
import { ValidationError } from "../../../errors/app-error.ts";
import { isMultipart } from "../../../media/form.ts";
import { multipartLimit } from "../../../middleware/body-limit.ts";
import { problemResponses } from "../../../openapi/problem.ts";
import {
  json,
  jsonBody,
  jsonOrMultipartBody,
  newRouter,
  signedIn,
} from "../../../openapi/router.ts";
import { IdParams } from "../../../validation/common.ts";
import { playlistContext } from "../context.ts";
import {
  CreatePlaylistBody,
  PlaylistDto,
  UpdatePlaylistForm,
  UpdatePlaylistJson,
} from "../schema.ts";
import { createPlaylist, deletePlaylist, updatePlaylist } from "../service.ts";

const tags = ["Playlists"];
/** A 5 MB cover plus the text fields and multipart framing. */
const UPDATE_BODY_LIMIT_BYTES = 6 * 1024 * 1024;
const OWNER =
  "Only the owner may do this: another user gets 403, also for a private playlist (reads hide it behind 404, writes say 403 as the spec's error table does).";

const create = createRoute({
  method: "post",
  path: "/",
  tags,
  ...signedIn("user"),
  summary: "Create a playlist",
  description:
    "`title`: 1–100 characters after trimming. `description`: at most 1000 characters after trimming, default empty. `isPublic`: a JSON boolean, default false (private). Answers the new, empty playlist.",
  middleware: [requireUser] as const,
  request: jsonBody(CreatePlaylistBody),
  responses: {
    201: json(PlaylistDto, "Created."),
    ...problemResponses(400, 401, 403, 413, 415),
  },
});

const update = createRoute({
  method: "put",
  path: "/{id}",
  tags,
  ...signedIn("user"),
  summary: "Update a playlist",
  description: `A partial update: send at least one of \`title\`, \`description\`, \`isPublic\` (same rules as on create); fields left out keep their values. As JSON, or as multipart/form-data with the same text fields (\`isPublic\` as the text \`true\`/\`false\`) plus an optional \`cover\` image: PNG, JPEG or WebP recognised by its bytes (else 415), at most 5 MB (else 413). A new cover gets a new path and the replaced image is deleted. There is no way to remove a cover without replacing it. Answers the playlist with its full track list. ${OWNER}`,
  middleware: [requireUser, multipartLimit(UPDATE_BODY_LIMIT_BYTES)] as const,
  request: {
    params: IdParams,
    ...jsonOrMultipartBody(UpdatePlaylistJson, UpdatePlaylistForm),
  },
  responses: {
    200: json(PlaylistDto, "Updated."),
    ...problemResponses(400, 401, 403, 404, 413, 415),
  },
});

const remove = createRoute({
  method: "delete",
  path: "/{id}",
  tags,
  ...signedIn("user"),
  summary: "Delete a playlist",
  description: `Deletes the playlist, its track entries, its likes and its cover image. ${OWNER}`,
  middleware: [requireUser] as const,
  request: { params: IdParams },
  responses: {
    204: { description: "Deleted." },
    ...problemResponses(400, 401, 403, 404),
  },
});

/** An update must change something; a body without fields (or without a body) is a 400. */
function requireSomeField(target: "json" | "form", fields: Record<string, unknown>) {
  if (Object.values(fields).some((value) => value !== undefined)) return;
  throw new ValidationError(
    [{ path: target, message: "send at least one field", code: "empty_update" }],
    "Send at least one of title, description, isPublic (or cover, in a multipart body).",
  );
}

export const writeRoutes = newRouter()
  .openapi(create, async (c) => {
    const playlist = await createPlaylist(playlistContext(c), c.req.valid("json"));
    return c.json(playlist, 201);
  })
  .openapi(update, async (c) => {
    const { id } = c.req.valid("param");
    const ctx = playlistContext(c);
    if (isMultipart(c)) {
      const form = c.req.valid("form");
      const { cover, ...patch } = "cover" in form ? form : { ...form, cover: undefined };
      requireSomeField("form", { ...patch, cover });
      return c.json(await updatePlaylist(ctx, id, patch, cover), 200);
    }
    const patch = c.req.valid("json");
    requireSomeField("json", patch);
    return c.json(await updatePlaylist(ctx, id, patch), 200);
  })
  .openapi(remove, async (c) => {
    await deletePlaylist(playlistContext(c), c.req.valid("param").id);
    return c.body(null, 204);
  });
