import { version } from "../../../package.json";

/** Top of the OpenAPI 3.1 document; routes add themselves through `createRoute`. */
export const openApiDocument = {
  openapi: "3.1.0",
  info: {
    title: "Edge Music API",
    version,
    license: { name: "MIT", identifier: "MIT" },
    description: [
      "The back end of a music streaming service: accounts for listeners (users) and uploaders (artists), playlists, listening history, follows and likes, search, uploads converted to Opus and adaptive HLS.",
      "",
      "**Conventions**",
      "- Every path starts with `/api/v1`. JSON in and out, except uploads (multipart) and HLS media.",
      "- Ids are UUIDs; timestamps are ISO 8601 in UTC.",
      "- Errors are RFC 9457 problem documents (`application/problem+json`): `type`, `title`, `status`, `detail`, a stable `code`, the `requestId` (also in the `X-Request-Id` response header), and `errors` per field for validation failures. Unknown routes answer 404 with the same shape; a known path asked with a method it does not take answers 405 `METHOD_NOT_ALLOWED` with an `Allow` header listing the methods it does take.",
      "- A request may carry its own `X-Request-Id` (8–128 characters of letters, digits, `._:-`); otherwise the service makes one.",
      "- JSON bodies are limited to 1 MiB (413 above); a malformed JSON body answers 400 `MALFORMED_REQUEST`; a body whose `Content-Type` is not one the operation lists answers 415 `UNSUPPORTED_MEDIA_TYPE`.",
      "- Every operation has a stable `operationId` (camelCase, verb first; operations of both account kinds name the kind: `registerUser`, `registerArtist`) and states its `security`: `[]` for public operations.",
      "- Successful GETs answer an `ETag` (strong, a digest of the body; the object's own for media). Send it back in `If-None-Match` to get `304 Not Modified` without a body when nothing changed.",
      "- Public reads (artists, tracks, albums, public playlists, search, HLS) asked for without an access cookie may be answered from the edge cache of the nearest data centre: each such operation states how old its answer can be (at most a minute for JSON). `x-edge-cache` says hit, stale, miss or bypass; signed-in callers always get current data (`Cache-Control: private, no-cache`).",
      "- Lists take `page` (≥ 1, default 1) and `limit` (1–100, default 20); other values answer 400. Ids in paths must be UUIDs (else 400).",
      "- Images (avatars, backgrounds, covers) are sent as multipart/form-data: PNG, JPEG or WebP recognised by their content (else 415), at most 5 MB each (else 413). They are served under `/static/…` with a new name per upload.",
      "",
      "**Authentication**",
      "- Users (listeners) and artists (uploaders) are separate kinds of account with identical flows under `/api/v1/users/auth/*` and `/api/v1/artists/auth/*`.",
      "- Credentials travel in HttpOnly, SameSite=Lax cookies (Secure except on http://localhost): `access_token` (JWT, 5 minutes, Path=/api/v1) and `refresh_token` (JWT, 30 days, Path=the kind's auth routes). API clients without a cookie store send `Cookie: access_token=<token>`.",
      "- Sessions live on the server: signing out, a password reset or a detected refresh-token reuse ends a session at once, whatever the remaining lifetime of its tokens.",
      "- A browser holds one `access_token` at a time (the cookie name is fixed): signing in as an artist replaces a user's access cookie in that browser; the user's refresh cookie stays and can restore it.",
      "- Public routes that show more to an owner (GET /tracks/{id}, GET /playlists/{id}, a track's streams and waveform) need no cookie; but a cookie that is present and invalid or expired answers 401, so that the client refreshes rather than taking its own private or unfinished resource for a missing one.",
      "- 401 `UNAUTHORIZED`: no, expired or invalid credentials. 403 `FORBIDDEN`: signed in, but as the other kind of account, or not the owner. 403 `REAUTHENTICATION_REQUIRED`: the change needs the account's password (send it as `password`), since the session signed in too long ago to prove the owner by itself.",
      "- State-changing requests (POST, PUT, PATCH, DELETE) that a browser marks as cross-site (an `Origin` other than the front end's or the service's own, or `Sec-Fetch-Site: cross-site`) answer 403. CORS allows the front end's origin with credentials.",
    ].join("\n"),
  },
  servers: [{ url: "/", description: "This deployment" }],
  tags: [
    { name: "Health", description: "Liveness and readiness probes." },
    {
      name: "User auth",
      description:
        "Sign-up, sign-in, sessions, 2FA, OAuth and password reset of users (listeners).",
    },
    {
      name: "Artist auth",
      description:
        "The same flows for artists (uploaders). Artist endpoints never return the email.",
    },
    {
      name: "Artists",
      description:
        "Artist profiles (public), their tracks and albums; the signed-in artist's own tracks and profile; follows and likes of artists by users.",
    },
    { name: "Albums", description: "Albums of artists: public reads, the owner's writes." },
    {
      name: "Tracks",
      description:
        "Uploads (form and direct to storage), conversion status and retries, the catalogue of tracks and the owner's edits, listeners' likes of tracks.",
    },
    {
      name: "Streaming",
      description:
        "A track's audio: the HLS master and media playlists and segments, the progressive Opus fallback, the waveform.",
    },
    {
      name: "Playlists",
      description: "Users' playlists: public reads, the owner's writes, tracks in them, likes.",
    },
    {
      name: "Sharing",
      description:
        "The owner's link to an unlisted track, album or playlist (`?key=…`), and its rotation (ADR 0025).",
    },
    { name: "Listening history", description: "The signed-in user's listens." },
    {
      name: "Plays",
      description:
        "Plays reported by listeners who are not signed in, counted by a queue (ADR 0028).",
    },
    {
      name: "Play queue",
      description: "The signed-in user's saved play queue, to go on listening on another device.",
    },
    { name: "Search", description: "Search across tracks, artists, albums and playlists." },
    { name: "Media", description: "Images (avatars, backgrounds, covers) served under /static." },
    { name: "Reference", description: "This document and its interactive reference page." },
  ],
};
