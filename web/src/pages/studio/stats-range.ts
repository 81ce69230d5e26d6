// The statistics page's pure parts: the days of a range (UTC, as the API counts them) and the
// names of countries as the API reports them.

/** The ranges an artist chooses from, in days ending today. */
export const RANGES = [7, 30, 90] as const;
export type RangeDays = (typeof RANGES)[number];

export const rangeOf = (value: string | undefined): RangeDays =>
  RANGES.find((days) => String(days) === value) ?? 30;

const isoDay = (date: Date) => date.toISOString().slice(0, 10);

/** The API's `from` and `to` (UTC days, both included) of the `days` ending on `today`'s. */
export function rangeDates(days: number, today = new Date()): { from: string; to: string } {
  const from = new Date(today.getTime() - (days - 1) * 86_400_000);
  return { from: isoDay(from), to: isoDay(today) };
}

/** A UTC day ("2026-11-27") as seconds since the epoch, the chart's x. */
export const daySeconds = (day: string): number => Date.parse(`${day}T00:00:00Z`) / 1000;

/** A UTC day as people read it ("27 Nov 2026"), the same wherever the reader is. */
export const formatDay = (day: string): string =>
  new Date(`${day}T00:00:00Z`).toLocaleDateString("en-GB", {
    day: "numeric",
    month: "short",
    year: "numeric",
    timeZone: "UTC",
  });

const regions = new Intl.DisplayNames(["en"], { type: "region", fallback: "code" });

/** A country code of the API (ISO 3166-1 alpha-2, or Cloudflare's XX and T1) as a name. */
export function countryName(code: string): string {
  if (code === "XX") return "Unknown";
  if (code === "T1") return "Tor network";
  try {
    return regions.of(code) ?? code;
  } catch {
    return code;
  }
}
