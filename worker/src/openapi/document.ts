import { version } from "../../../package.json";

/** Top of the OpenAPI 3.1 document; routes add themselves through `createRoute`. */
export const openApiDocument = {
  openapi: "3.1.0",
  info: {
    title: "Edge Music API",
    version,
    description: [
      "The back end of a music streaming service: accounts for listeners (users) and uploaders (artists), playlists, listening history, follows and likes, search, uploads converted to Opus and adaptive HLS.",
      "",
      "**Conventions**",
      "- Every path starts with `/api/v1`. JSON in and out, except uploads (multipart) and HLS media.",
      "- Ids are UUIDs; timestamps are ISO 8601 in UTC.",
      "- Errors are RFC 9457 problem documents (`application/problem+json`): `type`, `title`, `status`, `detail`, a stable `code`, the `requestId` (also in the `X-Request-Id` response header), and `errors` per field for validation failures. Unknown routes answer 404 with the same shape.",
      "- A request may carry its own `X-Request-Id` (8–128 characters of letters, digits, `._:-`); otherwise the service makes one.",
      "- JSON bodies are limited to 1 MiB (413 above); a malformed JSON body answers 400 `MALFORMED_REQUEST`.",
    ].join("\n"),
  },
  servers: [{ url: "/", description: "This deployment" }],
  tags: [{ name: "Health", description: "Liveness and readiness probes." }],
};
