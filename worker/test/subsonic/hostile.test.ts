import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { METHOD_NAMES } from "../../src/features/subsonic/service.ts";
import { appAccount, call } from "./support.ts";

/**
 * Whatever an app or an attacker sends, the door answers the protocol's envelope with HTTP 200
 * (an error inside it), never a problem document, a 4xx/5xx or a stack: every method, signed in
 * or not, with parameters of any shape.
 */
const NAMES = ["id", "u", "t", "s", "p", "apiKey", "f", "callback", "size", "offset", "type"];
const value = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.constantFrom("", "enc:zz", "enc:", "single-", "tr-", "-1", "99999999999", "' or 1=1 --"),
  fc.uuid(),
);
const params = fc.dictionary(fc.constantFrom(...NAMES), value, { maxKeys: 6 });

describe("the Subsonic door under hostile input", () => {
  it("answers every method with an envelope, with or without valid credentials", async () => {
    const account = await appAccount();
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...METHOD_NAMES, "nope", "getVideos"),
        params,
        fc.boolean(),
        fc.constantFrom("GET", "POST") as fc.Arbitrary<"GET" | "POST">,
        async (method, given, signedIn, verb) => {
          // Signed in: the app password alone, with everything else as given.
          const { u, t, s, p, apiKey, ...rest } = given;
          const sent = signedIn ? { ...rest, apiKey: account.appPassword } : given;
          const answer = await call(method, { ...sent, f: "json" }, { method: verb });
          const type = answer.headers.get("content-type") ?? "";
          if (type.startsWith("audio/") || type.startsWith("image/")) return;
          expect(answer.status).toBe(200);
          expect(type).toMatch(/^application\/json/);
          const body = (await answer.json()) as { "subsonic-response": { status: string } };
          expect(["ok", "failed"]).toContain(body["subsonic-response"].status);
        },
      ),
      { numRuns: 120, seed: 30 },
    );
  });
});
