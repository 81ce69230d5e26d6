import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isPagePath } from "../../src/features/previews/pages.ts";
import type { PrincipalKind } from "../../src/security/account-kinds.ts";
import { Client, KINDS, type Registered } from "../support/auth.ts";
import { validArbitrary } from "../support/fuzz/schema-arbitrary.ts";
import { describeGuardMatrix, type ProtectedRoute } from "../support/guard-matrix.ts";
import {
  loadDocument,
  type Operation,
  operationsOf,
  registeredRoutes,
} from "../support/openapi-routes.ts";
import { expectProblem } from "../support/problem.ts";

/**
 * The guards of the whole route table, read from the OpenAPI document: every operation is public
 * by name below, open to anyone with more for a signed-in caller, or declares the cookie security
 * and the account kind it takes. A route that is none of these fails here, so a new route cannot
 * slip out unguarded; every protected one runs the whole credentials matrix.
 */
const PUBLIC = new Set([
  "GET /api/v1/health/live",
  "GET /api/v1/health/ready",
  ...KINDS.flatMap((kind) =>
    [
      "POST register",
      "POST login",
      // Refresh and logout read the refresh cookie themselves (a sign-out must work with an
      // expired access token); 2fa/complete reads the pending sign-in's cookie.
      "POST refresh",
      "POST logout",
      "POST 2fa/complete",
      "GET oauth/{provider}",
      "GET oauth/{provider}/callback",
      "POST password/forgot",
      "POST password/reset",
      // The mailed link may be opened on any device: the token is the credential.
      "POST email/verify",
    ].map((entry) => entry.replace(" ", ` /api/v1/${kind}s/auth/`)),
  ),
  "GET /api/v1/artists",
  "GET /api/v1/artists/{id}/tracks",
  "GET /api/v1/albums",
  "GET /api/v1/playlists",
  "GET /api/v1/tracks",
  "GET /api/v1/tracks/{id}/related",
  "GET /api/v1/tracks/trending",
  // A listener who is not signed in reports a play (ADR 0028).
  "POST /api/v1/plays",
  "GET /api/v1/search",
  "GET /api/v1/oembed",
  "GET /static/{folder}/{file}",
  "GET /api/v1/openapi.json",
  "GET /api/v1/docs",
]);

const doc = await loadDocument();
const operations = operationsOf(doc);
const byAccess = (type: Operation["access"]["type"]) =>
  operations.filter((op) => op.access.type === type);

/** A valid JSON body from the operation's schema, so that only the credentials can be wrong. */
function validBody(op: Operation): unknown {
  const schema = op.body["application/json"];
  if (!schema) return undefined;
  const [body] = fc.sample(validArbitrary(doc, schema), { numRuns: 1, seed: 7 });
  return body;
}

/**
 * Path parameters are the caller's own id: an (owner) route keyed by the account itself (PUT
 * /artists/{id}) then passes the ownership check, and any other id is simply not found.
 */
const ownPath = (op: Operation) => (owner: Registered) => op.path.replace(/\{[^}]+\}/g, owner.id);

describe("the route table", () => {
  it("documents every route the app answers", () => {
    const documented = new Set(operations.map((op) => op.id));
    // /rest/* is the Subsonic door: another protocol, with its own credentials (app passwords)
    // and envelopes, not an operation of this document (ADR 0024; its tests: test/subsonic/).
    // The player's item pages and the embed are HTML pages of the player, not operations of the
    // API (ADR 0027; their tests: test/previews/).
    const undocumented = [...registeredRoutes()].filter((route) => {
      const path = route.split(" ")[1] ?? "";
      return !documented.has(route) && !path.startsWith("/rest/") && !isPagePath(path);
    });
    expect(undocumented).toEqual([]);
  });

  it("has no operation that is neither public by name nor declares its guard", () => {
    const unclear = operations
      .filter((op) => op.access.type === "unclear")
      .map((op) => `${op.id}: ${op.access.type === "unclear" ? op.access.why : ""}`);
    const undeclaredPublic = byAccess("public")
      .map((op) => op.id)
      .filter((id) => !PUBLIC.has(id));
    expect(unclear).toEqual([]);
    expect(undeclaredPublic).toEqual([]);
  });

  it("names in the public list only operations that exist and are public", () => {
    const publicIds = new Set(byAccess("public").map((op) => op.id));
    expect([...PUBLIC].filter((id) => !publicIds.has(id))).toEqual([]);
  });

  it("finds protected routes of both kinds", () => {
    const kinds = new Set(
      byAccess("protected").map((op) => (op.access as { kind: PrincipalKind }).kind),
    );
    expect([...kinds].sort()).toEqual(["artist", "user"]);
  });
});

describe("optional sign-in routes", () => {
  describe.each(byAccess("optional").map((op) => [op.id, op] as const))("%s", (_id, op) => {
    const path = op.path.replace(/\{[^}]+\}/g, crypto.randomUUID());

    it("answers without credentials", async () => {
      const response = await new Client().request(op.method, path, validBody(op));
      expect([401, 403]).not.toContain(response.status);
    });

    it("401 with a cookie that is present but invalid", async () => {
      const response = await new Client().request(op.method, path, validBody(op), {
        cookie: "access_token=not.a.token",
      });
      await expectProblem(response, 401, "UNAUTHORIZED");
    });
  });
});

describeGuardMatrix(
  byAccess("protected").map(
    (op): ProtectedRoute => ({
      method: op.method as ProtectedRoute["method"],
      path: ownPath(op),
      name: op.path,
      kind: (op.access as { kind: PrincipalKind }).kind,
      body: validBody(op),
    }),
  ),
  { accounts: "per-route" },
);
