/** Where the reference's script is served from our own origin (wrangler.toml `[assets]`). */
export const REFERENCE_SCRIPT = "/api-reference/standalone.js";

/**
 * The API reference page: Scalar's script from our own origin (the pinned @scalar/api-reference,
 * copied into the static assets by scripts/build-assets.ts), started by an inline script that a
 * per-response nonce authorises. The Content-Security-Policy allows nothing from anywhere else:
 * no CDN, no fonts service, no proxy; the "try it" client may call this origin only. Inline
 * styles are allowed (Scalar sets them as it renders); inline scripts only with the nonce.
 */
export function referencePage(documentUrl: string, title: string): Response {
  const nonce = btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(16))));
  const configuration = JSON.stringify({
    url: documentUrl,
    // No fonts.scalar.com: the page uses the system's fonts.
    withDefaultFonts: false,
    // No telemetry, no proxy service, no "open in client" to scalar.com.
    telemetry: false,
    hideClientButton: true,
    proxyUrl: "",
  }).replaceAll("<", "\\u003c");
  const html = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <meta property="csp-nonce" content="${nonce}" />
    <title>${title}</title>
  </head>
  <body>
    <div id="app"></div>
    <script src="${REFERENCE_SCRIPT}"></script>
    <script nonce="${nonce}">Scalar.createApiReference("#app", ${configuration});</script>
  </body>
</html>
`;
  const policy = [
    "default-src 'none'",
    `script-src 'self' 'nonce-${nonce}'`,
    // Scalar sets styles at run time (style elements and attributes): inline styles are allowed,
    // scripts are not. With the network closed to other origins, a style cannot send anything.
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join("; ");
  return new Response(html, {
    headers: {
      "content-type": "text/html; charset=utf-8",
      "content-security-policy": policy,
      "cache-control": "no-store",
    },
  });
}
