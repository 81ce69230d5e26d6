// An artist's statistics: plays per day over 7, 30 or 90 days (a chart, and the same numbers as a
// table: the chart's text), for all their tracks or one, with listeners, likes and new followers;
// the most played tracks and the countries of the range. The choices are in the address.
import { useLocation } from "preact-iso";
import { api, unwrap } from "../../api.ts";
import { PageTitle } from "../../ui/headings.tsx";
import { ErrorMessage, Loading } from "../../ui/messages.tsx";
import { formatPlays } from "../../ui/plays.tsx";
import { useResource } from "../../ui/resource.ts";
import { ArtistOnly, useOwnTracks } from "./shell.tsx";
import { PlaysChart } from "./stats-chart.tsx";
import { countryName, formatDay, RANGES, rangeDates, rangeOf } from "./stats-range.ts";

export function StudioStats() {
  return <ArtistOnly title="Statistics">{() => <Stats />}</ArtistOnly>;
}

function Stats() {
  const location = useLocation();
  const days = rangeOf(location.query.days);
  const trackId = location.query.track || undefined;
  const choose = (next: { days?: number; track?: string }) => {
    const query = new URLSearchParams();
    const d = next.days ?? days;
    const t = next.track ?? trackId ?? "";
    if (d !== 30) query.set("days", String(d));
    if (t) query.set("track", t);
    location.route(`/studio/stats${query.size ? `?${query}` : ""}`, true);
  };
  const tracks = useOwnTracks();
  const stats = useResource(
    async (signal) =>
      unwrap(
        await api("artist").GET("/api/v1/artists/me/stats", {
          params: { query: { ...rangeDates(days), ...(trackId ? { trackId } : {}) } },
          signal,
        }),
      ),
    [days, trackId],
  );
  const s = stats.data;
  const total = s?.days.reduce((sum, d) => sum + d.plays, 0) ?? 0;
  return (
    <>
      <PageTitle title="Statistics">Statistics</PageTitle>
      <form class="row" aria-label="What to show" onSubmit={(e) => e.preventDefault()}>
        <label for="stats-range">Range</label>
        <select
          id="stats-range"
          value={String(days)}
          onChange={(e) => choose({ days: Number(e.currentTarget.value) })}
        >
          {RANGES.map((n) => (
            <option key={n} value={String(n)}>
              Last {n} days
            </option>
          ))}
        </select>
        <label for="stats-track">Track</label>
        <select
          id="stats-track"
          value={trackId ?? ""}
          onChange={(e) => choose({ track: e.currentTarget.value })}
        >
          <option value="">All tracks</option>
          {tracks.data?.map((t) => (
            <option key={t.id} value={t.id}>
              {t.title}
            </option>
          ))}
        </select>
      </form>
      <ErrorMessage error={stats.error} />
      {stats.loading && !s && <Loading />}
      {s && (
        <>
          <section aria-labelledby="plays-per-day">
            <h2 id="plays-per-day">Plays per day</h2>
            <p class="muted">
              {formatPlays(total)} from {formatDay(s.from)} to {formatDay(s.to)} (UTC days); the
              table below the chart has each day's numbers.
            </p>
            <PlaysChart days={s.days} />
            <table class="table stats-table" aria-labelledby="plays-per-day">
              <thead>
                <tr>
                  <th scope="col">Day</th>
                  <th scope="col">Plays</th>
                  <th scope="col">Listeners</th>
                  <th scope="col">Likes</th>
                  <th scope="col">New followers</th>
                </tr>
              </thead>
              <tbody>
                {[...s.days].reverse().map((d) => (
                  <tr key={d.day}>
                    <th scope="row">{formatDay(d.day)}</th>
                    <td>{d.plays}</td>
                    <td>{d.listeners}</td>
                    <td>{d.likes}</td>
                    <td>{d.newFollowers}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </section>
          <TopTracks tracks={s.topTracks} />
          <Countries countries={s.countries} />
        </>
      )}
    </>
  );
}

function TopTracks({
  tracks,
}: {
  tracks: Array<{ id: string; title: string; plays: number; listeners: number }>;
}) {
  return (
    <section aria-labelledby="top-tracks">
      <h2 id="top-tracks">Most played</h2>
      {tracks.length === 0 ? (
        <p class="muted">No plays in this range yet.</p>
      ) : (
        <table class="table" aria-labelledby="top-tracks">
          <thead>
            <tr>
              <th scope="col">Track</th>
              <th scope="col">Plays</th>
              <th scope="col">Listeners</th>
            </tr>
          </thead>
          <tbody>
            {tracks.map((t) => (
              <tr key={t.id}>
                <th scope="row">
                  <a href={`/tracks/${t.id}`}>{t.title}</a>
                </th>
                <td>{t.plays}</td>
                <td>{t.listeners}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

function Countries({ countries }: { countries: Array<{ country: string; plays: number }> }) {
  return (
    <section aria-labelledby="countries">
      <h2 id="countries">Countries</h2>
      {countries.length === 0 ? (
        <p class="muted">No plays in this range yet.</p>
      ) : (
        <table class="table" aria-labelledby="countries">
          <thead>
            <tr>
              <th scope="col">Country</th>
              <th scope="col">Plays</th>
            </tr>
          </thead>
          <tbody>
            {countries.map((c) => (
              <tr key={c.country}>
                <th scope="row">{countryName(c.country)}</th>
                <td>{c.plays}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
