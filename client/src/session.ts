// The cookie session seen from a client: every call carries the cookies (credentials included),
// and a 401 is answered by ONE refresh shared by every call that meets it, then one retry.
import type { Middleware } from "openapi-fetch";

export type AccountKind = "user" | "artist";
export type FetchLike = (input: Request | string | URL, init?: RequestInit) => Promise<Response>;

/**
 * Auth routes whose 401 is about what was sent (a wrong password or code, a used refresh token,
 * a public flow), not an expired access token: a refresh would not help, or is the call itself.
 */
const NO_REFRESH =
  /\/auth\/(register|login|refresh|logout|2fa\/(verify|disable|complete)|oauth\/.*|password\/(forgot|reset)|email\/verify)$/;

export const refreshes401 = (path: string) => !NO_REFRESH.test(path);

/**
 * Refreshes the session of one account kind, once however many callers ask at the same time.
 * `epoch` counts finished refreshes: a call sent before the latest one finished takes its outcome
 * (retries with the new cookies, or keeps its 401) without a refresh of its own, since its 401
 * came back after that refresh had ended.
 */
export class SessionRefresher {
  #epoch = 0;
  #lastOutcome = false;
  #inFlight: Promise<boolean> | undefined;

  /**
   * `onEnded`: the refresh was refused (401): the session is over (signed out elsewhere, ended
   * from another device, expired), not merely unreachable, so the app can show it signed out.
   */
  constructor(
    private readonly fetch: FetchLike,
    private readonly refreshUrl: string,
    private readonly onEnded?: () => void,
  ) {}

  get epoch(): number {
    return this.#epoch;
  }

  /** Whether the session may be used again: refreshed now, or by a refresh since `sentAt`. */
  refreshSince(sentAt: number): Promise<boolean> {
    if (this.#epoch !== sentAt) return Promise.resolve(this.#lastOutcome);
    this.#inFlight ??= this.#refresh().then((ok) => {
      this.#lastOutcome = ok;
      this.#epoch++;
      this.#inFlight = undefined;
      return ok;
    });
    return this.#inFlight;
  }

  async #refresh(): Promise<boolean> {
    try {
      const response = await this.fetch(
        new Request(this.refreshUrl, { method: "POST", credentials: "include" }),
      );
      await response.body?.cancel();
      if (response.status === 401) this.#ended();
      return response.ok;
    } catch {
      // The network, not the session: nothing is known to have ended.
      return false;
    }
  }

  #ended() {
    try {
      this.onEnded?.();
    } catch {
      // A listener's fault is not the refresh's: the caller still gets its 401.
    }
  }

  /**
   * Sends, and on a 401 refreshes (shared) and sends once more. `send` makes a fresh request each
   * time: a body, once sent, cannot be sent again.
   */
  async withRetry(send: () => Promise<Response>): Promise<Response> {
    const sentAt = this.#epoch;
    const response = await send();
    if (response.status !== 401 || !(await this.refreshSince(sentAt))) return response;
    await response.body?.cancel();
    return await send();
  }
}

/**
 * openapi-fetch middleware: keeps a copy of each request before it is sent (with its body) and,
 * on a 401 from a route other than the auth flows, retries the copy once after the shared refresh.
 * If the refresh fails, the 401 stands.
 */
export function sessionMiddleware(refresher: SessionRefresher): Middleware {
  const pending = new Map<string, { copy: Request; sentAt: number }>();
  return {
    onRequest({ request, schemaPath, id }) {
      if (refreshes401(schemaPath)) {
        pending.set(id, { copy: request.clone(), sentAt: refresher.epoch });
      }
      return request.credentials === "include"
        ? undefined
        : new Request(request, { credentials: "include" });
    },
    async onResponse({ response, id, options }) {
      const kept = pending.get(id);
      pending.delete(id);
      if (!kept || response.status !== 401) return undefined;
      if (!(await refresher.refreshSince(kept.sentAt))) return undefined;
      await response.body?.cancel();
      // The call's own fetch: the client's, or one given to this call.
      return await options.fetch(kept.copy);
    },
    onError({ id }) {
      pending.delete(id);
    },
  };
}
