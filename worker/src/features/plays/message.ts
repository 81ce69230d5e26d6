import { z } from "zod";

/**
 * One play report as it travels through the plays queue (and the play inbox when the queue
 * refused it): the track, who listened (a key, never an address), the country the edge saw and
 * when the report was made. The consumer parses every message with this schema; a message that
 * does not parse is acknowledged and logged, never retried (it would never parse).
 */
export const PlayMessage = z.object({
  v: z.literal(1),
  trackId: z.uuid(),
  /** `u:<user id>` (signed in) or `n:<hash of the network under the day's salt>`. */
  listener: z.string().regex(/^[un]:[0-9a-f-]{16,64}$/),
  /** ISO 3166-1 alpha-2 from `request.cf.country`, `XX` when the edge did not say. */
  country: z.string().regex(/^[A-Z0-9]{2}$/),
  /** When the listener's report arrived (ISO 8601): the play's hour and day. */
  at: z.iso.datetime({ offset: true }),
});

export type PlayMessage = z.infer<typeof PlayMessage>;

/** The country of a request as Cloudflare's edge saw it (`XX` when unknown, as Cloudflare says). */
export function countryOf(request: Request): string {
  const country = (request as { cf?: { country?: unknown } }).cf?.country;
  return typeof country === "string" && /^[A-Z0-9]{2}$/.test(country) ? country : "XX";
}
