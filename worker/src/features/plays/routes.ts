import { createRoute } from "@hono/zod-openapi";
import { problemResponses } from "../../openapi/problem-responses.ts";
import { json, jsonBody, newRouter } from "../../openapi/router.ts";
import { publicRoute } from "../../security/guard.ts";
import { countryOf } from "./message.ts";
import { PlayReportDto, PlayReportInput } from "./schema.ts";
import { ANONYMOUS_PLAYS_PER_HOUR, reportAnonymousPlay } from "./service.ts";

const report = createRoute({
  method: "post",
  path: "/",
  operationId: "reportPlay",
  tags: ["Plays"],
  ...publicRoute(),
  summary: "Report a play by a listener who is not signed in",
  description: `A player reports a play once the listener has heard 30 seconds of the track, or the whole of a shorter one (signed-in listeners use \`POST /history/tracks/{trackId}\`, which counts the play too). The track must be READY and public, or unlisted with its \`key\` or with \`exp\` and \`sig\` of its signed stream URLs (a SharedTrack's \`stream.query\`; signed-in listeners report an unlisted track's play here too, as their history lists only public tracks); else 404. Answers 202 at once: the play is counted later (within seconds) by the plays queue's consumer, once per network and track in 10 minutes, into the track's \`plays\` and its artist's statistics. A network (an IPv4 address, an IPv6 /64) may report ${ANONYMOUS_PLAYS_PER_HOUR} plays an hour (then 429 with Retry-After). The address is never stored: the network is known by a keyed hash that changes every day. The country is the one Cloudflare's edge saw. Sent from a page of another origin than the player's (its \`Origin\` header), the report is refused with 403, as every write is.`,
  request: jsonBody(PlayReportInput),
  responses: {
    202: json(PlayReportDto, "The play was received; it is counted shortly."),
    ...problemResponses(400, 403, 404, 413, 415, 429),
  },
});

/** /api/v1/plays: anonymous play reports (ADR 0028). */
export const playRoutes = newRouter().openapi(report, async (c) => {
  const accepted = await reportAnonymousPlay(c.var.deps, c.req.valid("json"), countryOf(c.req.raw));
  return c.json(accepted, 202);
});
