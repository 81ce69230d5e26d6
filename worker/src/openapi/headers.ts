/**
 * The response headers the service sends, as reusable components (`#/components/headers/…`).
 * Routes attach those their own code sets (Set-Cookie, Content-Range, Retry-After);
 * middleware-parts.ts attaches those that app-wide middleware sets on every response of a kind
 * (X-Request-Id, ETag, Cache-Control, x-edge-cache).
 */
interface HeaderComponent {
  description: string;
  schema: { type: "string" | "integer"; enum?: string[]; minimum?: number };
}

export const HEADER_COMPONENTS = {
  "X-Request-Id": {
    description:
      "The request's id: the caller's own `X-Request-Id` when it is a safe token, else a new one. Also `requestId` of a problem document; quote it when reporting a problem.",
    schema: { type: "string" },
  },
  ETag: {
    description:
      "Strong validator of the answer (a digest of the body; the object's own for media). Send it back in `If-None-Match` to get 304 when nothing changed.",
    schema: { type: "string" },
  },
  "Cache-Control": {
    description:
      "How long browsers and shared caches may keep the answer: `no-store` for errors and private answers, `private, no-cache` for signed-in callers of cached routes, the route's policy otherwise.",
    schema: { type: "string" },
  },
  "x-edge-cache": {
    description:
      "Where the answer came from on a route cached at the edge: `hit`, `stale` (served while a new copy is fetched), `miss` or `bypass` (not stored: a signed-in or private answer).",
    schema: { type: "string", enum: ["hit", "stale", "miss", "bypass"] },
  },
  "Accept-Ranges": {
    description: "`bytes`: the file may be asked for in ranges (`Range`, answered with 206).",
    schema: { type: "string", enum: ["bytes"] },
  },
  "Content-Range": {
    description:
      "The part of the file a 206 holds (`bytes <first>-<last>/<size>`), or the file's size when the range cannot be satisfied (`bytes */<size>`, on 416).",
    schema: { type: "string" },
  },
  "Retry-After": {
    description: "Seconds to wait before trying again.",
    schema: { type: "integer", minimum: 0 },
  },
  "Set-Cookie": {
    description:
      "The session's cookies (`access_token`, `refresh_token`; HttpOnly, SameSite=Lax, Secure except on http://localhost), set, renewed or cleared; or a short-lived cookie of a sign-in in progress (OAuth state, the pending second factor). One header per cookie.",
    schema: { type: "string" },
  },
} satisfies Record<string, HeaderComponent>;

export type HeaderName = keyof typeof HEADER_COMPONENTS;

/** `headers` of a response entry in `createRoute({ responses })`. */
export const responseHeaders = (...names: HeaderName[]) =>
  Object.fromEntries(names.map((name) => [name, { $ref: `#/components/headers/${name}` }]));
