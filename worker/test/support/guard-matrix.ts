import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { Bindings } from "../../src/env.ts";
import type { PrincipalKind } from "../../src/security/account-kinds.ts";
import { signToken } from "../../src/security/tokens.ts";
import { Client, type Registered, registerAccount } from "./auth.ts";
import { textOf } from "./body.ts";
import { expectProblem } from "./problem.ts";

export interface ProtectedRoute {
  method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  /** The route's path; for (owner) routes, a function of the resource's owner. */
  path: string | ((owner: Registered) => string | Promise<string>);
  kind: PrincipalKind;
  /** A valid body, so that only the credentials can be wrong. */
  body?: unknown;
  /** (owner) routes: another account of the same kind must get 403. */
  owned?: boolean;
  /** The test title when `path` is a function (default "(owned)"). */
  name?: string;
}

export interface GuardMatrixOptions {
  /**
   * "per-route": the accounts whose tokens are forged or presented are registered once per route
   * and shared by its rejection cases (which never reach a handler), so that a matrix over the
   * whole route table stays fast. The case that passes the guard always gets a fresh owner, as it
   * may change its account. Default "per-test": fresh accounts in every case.
   */
  accounts?: "per-test" | "per-route";
}

const secret = () => (env as Bindings).JWT_SECRET ?? "";
const b64url = (value: unknown) =>
  btoa(JSON.stringify(value)).replace(/=+$/, "").replace(/\+/g, "-").replace(/\//g, "_");
const claimsOf = (token: string) =>
  JSON.parse(atob((token.split(".")[1] ?? "").replace(/-/g, "+").replace(/_/g, "/"))) as Record<
    string,
    unknown
  >;

/**
 * The whole credentials matrix against protected routes: none, expired, tampered, `alg: none`,
 * signed with another key, a refresh token in the access cookie → 401; a valid session of the
 * other kind → 403; for (owner) routes, another account of the same kind → 403.
 */
export function describeGuardMatrix(
  routes: ProtectedRoute[],
  options: GuardMatrixOptions = {},
): void {
  describe.each(
    routes.map(
      (r) =>
        [`${r.method} ${r.name ?? (typeof r.path === "string" ? r.path : "(owned)")}`, r] as const,
    ),
  )("guards of %s", (_name, route) => {
    const call = async (owner: Registered, cookie: string | undefined) => {
      const path = typeof route.path === "string" ? route.path : await route.path(owner);
      return await new Client().request(
        route.method,
        path,
        route.body,
        cookie === undefined ? {} : { cookie },
      );
    };
    const shared = new Map<string, Promise<Registered>>();
    /** An account of `kind` for the rejection cases; `role` names it within the route. */
    const account = (kind: PrincipalKind, role: string) => {
      if (options.accounts !== "per-route") return registerAccount(kind);
      const key = `${kind}:${role}`;
      let registered = shared.get(key);
      if (!registered) {
        registered = registerAccount(kind);
        shared.set(key, registered);
      }
      return registered;
    };
    const unauthorized = async (make: (owner: Registered) => Promise<string | undefined>) => {
      const owner = await account(route.kind, "owner");
      await expectProblem(await call(owner, await make(owner)), 401, "UNAUTHORIZED");
    };
    const access = (owner: Registered) => owner.client.jar.get("access_token") ?? "";

    it("401 without credentials", () => unauthorized(async () => undefined));

    it("401 with an expired token whose signature is valid", () =>
      unauthorized(async (owner) => {
        const claims = claimsOf(access(owner));
        const past = new Date(Date.now() - 10 * 60 * 1000);
        const { sub, sid, kind } = claims;
        return `access_token=${await signToken(secret(), "access", { sub, sid, kind }, 300, past)}`;
      }));

    it("401 with a tampered payload", () =>
      unauthorized(async (owner) => {
        const [header, , signature] = access(owner).split(".");
        const other = await account(route.kind, "stranger");
        const payload = b64url({ ...claimsOf(access(owner)), sub: other.id });
        return `access_token=${header}.${payload}.${signature}`;
      }));

    it("401 with alg: none", () =>
      unauthorized(async (owner) => {
        const header = b64url({ alg: "none", typ: "JWT" });
        return `access_token=${header}.${b64url(claimsOf(access(owner)))}.`;
      }));

    it("401 with a token signed by another key", () =>
      unauthorized(async (owner) => {
        const { sub, sid, kind } = claimsOf(access(owner));
        const forged = await signToken(
          "x".repeat(40),
          "access",
          { sub, sid, kind },
          300,
          new Date(),
        );
        return `access_token=${forged}`;
      }));

    it("401 with a refresh token in the access cookie", () =>
      unauthorized(async (owner) => `access_token=${owner.client.jar.get("refresh_token")}`));

    it("403 with a valid session of the other kind", async () => {
      const owner = await account(route.kind, "owner");
      const other = await account(route.kind === "user" ? "artist" : "user", "other kind");
      const response = await call(owner, `access_token=${access(other)}`);
      await expectProblem(response, 403, "FORBIDDEN");
    });

    it("passes the guard with the owner's own session", async () => {
      const owner = await registerAccount(route.kind);
      const response = await call(owner, `access_token=${access(owner)}`);
      expect([401, 403]).not.toContain(response.status);
      // Never a 500: in development a route that queried the database before its guard is one.
      expect(response.status, await textOf(response.clone())).not.toBe(500);
    });

    if (route.owned) {
      it("403 for another account of the same kind", async () => {
        const owner = await registerAccount(route.kind);
        const stranger = await registerAccount(route.kind);
        await expectProblem(
          await call(owner, `access_token=${access(stranger)}`),
          403,
          "FORBIDDEN",
        );
      });
    }
  });
}
