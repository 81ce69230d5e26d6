// A track's play count as people read it: in full on its page ("1,234 plays"), short in a row
// ("12K plays") where the full count is what a screen reader hears and a pointer's title shows.

const full = new Intl.NumberFormat("en");
const compact = new Intl.NumberFormat("en", { notation: "compact", maximumFractionDigits: 1 });

/** "1 play", "1,234 plays". */
export const formatPlays = (n: number): string => `${full.format(n)} ${n === 1 ? "play" : "plays"}`;

/** Up to 9,999 as in full; then "12K plays", "1.2M plays". */
export const formatPlaysShort = (n: number): string =>
  n < 10_000 ? formatPlays(n) : `${compact.format(n)} plays`;

/** A row's count: short on screen, in full for screen readers. */
export function PlayCount({ plays }: { plays: number }) {
  const short = formatPlaysShort(plays);
  const long = formatPlays(plays);
  if (short === long) return <span class="muted plays">{long}</span>;
  return (
    <span class="muted plays" title={long}>
      <span aria-hidden="true">{short}</span>
      <span class="visually-hidden">{long}</span>
    </span>
  );
}
