/**
 * The security headers of the web player's pages, in one place for both ways a page is answered:
 * the static assets' `_headers` (scripts/build-assets.ts) and the Worker, which answers the item
 * pages (link previews) and the embeddable player itself (ADR 0027). Nothing loads from another
 * origin; media and hls.js's worker come from blob: URLs of the page.
 */
const directives = (frameAncestors: string) =>
  [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data: blob:",
    "media-src 'self' blob:",
    "worker-src 'self' blob:",
    // Large uploads send their parts through the API too (PUT /uploads/{id}/parts/{n}).
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    `frame-ancestors ${frameAncestors}`,
  ].join("; ");

/** Every page but the embed: never framed. */
export const PAGE_CSP = directives("'none'");
/** The embeddable player (/embed/…): framed by any site; otherwise the same policy. */
export const EMBED_CSP = directives("*");

/** The headers besides the CSP, the same on every page. */
export const PAGE_HEADERS = {
  "X-Content-Type-Options": "nosniff",
  "Referrer-Policy": "same-origin",
  "Permissions-Policy": "camera=(), microphone=(), geolocation=()",
} as const;

/** A page's security headers: the player's (`page`) or the embed's. */
export const pageSecurityHeaders = (kind: "page" | "embed"): Record<string, string> => ({
  "Content-Security-Policy": kind === "embed" ? EMBED_CSP : PAGE_CSP,
  ...PAGE_HEADERS,
});
