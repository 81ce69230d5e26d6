import { type Context, Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import type { AppEnv } from "../../app-env.ts";
import { hasAccessCookie } from "../../security/cookies.ts";
import { countryOf } from "../plays/message.ts";
import { SUBSONIC_ERRORS, SubsonicError } from "./errors.ts";
import { errorEnvelope, readFormat } from "./respond.ts";
import { answerCall } from "./service.ts";

/** A form POST carries a handful of parameters: more is not a Subsonic call. */
const FORM_LIMIT_BYTES = 64 * 1024;

/**
 * The Subsonic door (OpenSubsonic): `/rest/<method>` and `/rest/<method>.view`, GET and
 * form-encoded POST (the `formPost` extension), mounted at /rest beside the REST API. Not in the
 * OpenAPI document: another protocol, whose answers are the protocol's envelopes (ADR 0024).
 */
export const subsonicRoutes = new Hono<AppEnv>();

const path = "/:call{[A-Za-z0-9]+(\\.view)?}";

subsonicRoutes.get(path, async (c) => {
  return await answer(c, new URL(c.req.url).searchParams);
});

subsonicRoutes.post(
  path,
  bodyLimit({
    maxSize: FORM_LIMIT_BYTES,
    onError: (c) =>
      errorEnvelope(
        readFormat(new URL(c.req.url).searchParams).format,
        new SubsonicError(SUBSONIC_ERRORS.generic, "The form is too large."),
      ),
  }),
  async (c) => {
    const params = new URL(c.req.url).searchParams;
    const type = c.req.header("content-type") ?? "";
    if (type.startsWith("application/x-www-form-urlencoded")) {
      // The query's parameters first: `get` answers the first of a name. The body is decoded from
      // its bytes: workerd warns on every `.text()` of a type it does not hold to be text.
      const form = new TextDecoder().decode(await c.req.arrayBuffer());
      for (const [name, value] of new URLSearchParams(form)) {
        params.append(name, value);
      }
    }
    return await answer(c, params);
  },
);

function answer(c: Context<AppEnv>, params: URLSearchParams) {
  return answerCall(c.var.deps, (c.req.param("call") ?? "").replace(/\.view$/, ""), {
    params,
    range: c.req.header("range"),
    ifNoneMatch: c.req.header("if-none-match"),
    country: countryOf(c.req.raw),
    // Never read, only named in the answer: this door takes no cookie and no Authorization.
    otherCredential: c.req.header("authorization") !== undefined || hasAccessCookie(c),
  });
}
