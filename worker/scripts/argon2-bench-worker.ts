// A bench-only Worker entry, never deployed: the Worker's own password module behind three
// routes, so that bench/auth.bench.ts can measure argon2 inside workerd (under `wrangler dev`).
// It lives here, not in bench/, to be type-checked with the Workers types. GET /empty is the
// baseline: what a request costs without any hashing.
import { hashPassword, verifyPassword } from "../src/security/password.ts";

const PASSWORD = "correct horse battery staple";
let stored: Promise<string> | undefined;

/** Runs `work` and answers how far the in-request clock moved (0 when workerd freezes it). */
async function timed(work: () => Promise<unknown>): Promise<Response> {
  const start = performance.now();
  await work();
  return Response.json({ clockMs: performance.now() - start });
}

export default {
  async fetch(request: Request): Promise<Response> {
    switch (new URL(request.url).pathname) {
      case "/empty":
        return timed(async () => {});
      case "/hash":
        return timed(() => hashPassword(PASSWORD));
      case "/verify": {
        stored ??= hashPassword(PASSWORD);
        const encoded = await stored;
        return timed(async () => {
          if (!(await verifyPassword(encoded, PASSWORD))) throw new Error("verify failed");
        });
      }
      default:
        return new Response("not found", { status: 404 });
    }
  },
};
