import type { FetchLike } from "./session.ts";

interface Cookie {
  host: string;
  name: string;
  value: string;
  path: string;
  /** Epoch milliseconds; none for a session cookie. */
  expires?: number;
}

/**
 * A browser's cookie store, enough for the session cookies, for runtimes whose fetch keeps none
 * (Node, scripts, tests): `createClient({ ..., fetch: new CookieJar().fetch })`. Browsers keep
 * cookies themselves and need none. Cookies are kept per host (any port, as browsers do), name
 * and path (the refresh token lives on its kind's auth path), sent to the paths under theirs until
 * they expire (Max-Age, Expires), and dropped when an answer clears them.
 */
export class CookieJar {
  readonly #cookies = new Map<string, Cookie>();

  /** A fetch that sends the jar's cookies and keeps the ones the answers set. */
  readonly fetch: FetchLike = async (input, init) => {
    const request = new Request(input, init);
    const url = new URL(request.url);
    const header = request.credentials === "omit" ? "" : this.header(url);
    // Replaces any Cookie header of the request: the jar is the one source, as in a browser.
    if (header) request.headers.set("cookie", header);
    else request.headers.delete("cookie");
    const response = await globalThis.fetch(request);
    if (request.credentials !== "omit") this.#store(url.hostname, response.headers.getSetCookie());
    return response;
  };

  /** The Cookie header a request to `url` carries. */
  header(url: string | URL): string {
    const { hostname, pathname } = new URL(url);
    const now = Date.now();
    const under = (c: Cookie) =>
      c.host === hostname &&
      (c.expires === undefined || c.expires > now) &&
      (pathname === c.path || pathname.startsWith(c.path.endsWith("/") ? c.path : `${c.path}/`));
    return [...this.#cookies.values()]
      .filter(under)
      .sort((a, b) => b.path.length - a.path.length)
      .map((c) => `${c.name}=${c.value}`)
      .join("; ");
  }

  /** The value of a kept cookie, on whatever host and path. */
  get(name: string): string | undefined {
    return [...this.#cookies.values()].find((c) => c.name === name)?.value;
  }

  /** Forgets a cookie, as its expiry would. */
  delete(name: string): void {
    for (const [key, c] of this.#cookies) if (c.name === name) this.#cookies.delete(key);
  }

  /** Replaces a kept cookie's value. */
  set(name: string, value: string): void {
    for (const c of this.#cookies.values()) if (c.name === name) c.value = value;
  }

  #store(host: string, setCookies: string[]): void {
    for (const line of setCookies) {
      const [pair = "", ...attributes] = line.split(";").map((part) => part.trim());
      const eq = pair.indexOf("=");
      if (eq <= 0) continue;
      const cookie: Cookie = {
        host,
        name: pair.slice(0, eq),
        value: pair.slice(eq + 1),
        path: "/",
      };
      let maxAge: number | undefined;
      for (const attribute of attributes) {
        const [key = "", value = ""] = attribute.split("=");
        if (/^path$/i.test(key)) cookie.path = value || "/";
        if (/^max-age$/i.test(key)) maxAge = Number(value);
        if (/^expires$/i.test(key) && !Number.isNaN(Date.parse(value))) {
          cookie.expires = Date.parse(value);
        }
      }
      // Max-Age wins over Expires (RFC 6265 §5.3).
      if (maxAge !== undefined && Number.isFinite(maxAge)) {
        cookie.expires = Date.now() + maxAge * 1000;
      }
      const key = `${host};${cookie.name};${cookie.path}`;
      const expired = cookie.value === "" || (cookie.expires ?? Infinity) <= Date.now();
      if (expired) this.#cookies.delete(key);
      else this.#cookies.set(key, cookie);
    }
  }
}
