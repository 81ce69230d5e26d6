import { NotFoundError, ValidationError } from "../../../errors/app-error.ts";
import type { RequestDeps } from "../../../request-deps.ts";
import { statsStatements } from "./queries.ts";
import { STATS_MAX_DAYS, type Stats, type StatsQuery } from "./schema.ts";

const DAY_MS = 24 * 3600 * 1000;
const dayOf = (date: Date) => date.toISOString().slice(0, 10);

/**
 * The signed-in artist's statistics over a range of UTC days: plays, listeners, likes and new
 * followers per day, the top tracks and the countries. One round trip (a batch of four reads,
 * the session check first); the plays are the roll-ups of ADR 0028, so they lag the listener by
 * seconds.
 */
export async function artistStats(
  ctx: Pick<RequestDeps, "db" | "principal" | "now">,
  query: StatsQuery,
): Promise<Stats> {
  const to = query.to ?? dayOf(ctx.now);
  const from = query.from ?? dayOf(new Date(Date.parse(to) - 29 * DAY_MS));
  const span = (Date.parse(to) - Date.parse(from)) / DAY_MS + 1;
  if (span < 1) {
    throw new ValidationError([{ path: "query.from", message: "must not be after `to`" }]);
  }
  if (span > STATS_MAX_DAYS) {
    throw new ValidationError([
      { path: "query.from", message: `at most ${STATS_MAX_DAYS} days before \`to\`` },
    ]);
  }
  const scope = { artistId: ctx.principal.id, from, to, trackId: query.trackId };
  const s = statsStatements(scope);
  const [days, top, countries, track] = (await ctx.db.batch([
    ctx.db.execute(s.days),
    ctx.db.execute(s.top),
    ctx.db.execute(s.countries),
    ctx.db.execute(s.track),
  ])) as unknown as [
    { rows: Stats["days"] },
    { rows: Stats["topTracks"] },
    { rows: Stats["countries"] },
    { rows: Array<{ found: number }> },
  ];
  if (query.trackId && !track.rows[0]?.found) {
    throw new NotFoundError(`You have no track with id ${query.trackId}.`);
  }
  return {
    from,
    to,
    trackId: query.trackId ?? null,
    days: days.rows,
    topTracks: top.rows,
    countries: countries.rows,
  };
}
