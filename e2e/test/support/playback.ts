// Playing faster than life, and the Worker's cron triggers on demand: a play counts once 30 s of a
// track were heard (all of a 20-s seeded track), in the track's own time, so a test hears it at
// four times the speed rather than wait; trending is recomputed by a cron the test fires.
import type { Page } from "playwright-core";

/** The player's <audio> at 4× from now on, the next tracks included (their loads keep the default rate). */
export const hurry = (page: Page) =>
  page.evaluate(() => {
    const audio = document.getElementById("player-audio") as HTMLAudioElement | null;
    if (!audio) throw new Error("no audio element yet: play something first");
    audio.defaultPlaybackRate = 4;
    audio.playbackRate = 4;
  });

/** The answer to the page's report of a play of `trackId`: its history (signed in) or /plays. */
export const playReported = (page: Page, trackId: string, how: "history" | "anonymous") =>
  page.waitForResponse(
    (r) =>
      r.request().method() === "POST" &&
      (how === "history"
        ? r.url().endsWith(`/api/v1/history/tracks/${trackId}`)
        : r.url().endsWith("/api/v1/plays") && r.request().postData()?.includes(trackId) === true),
    { timeout: 60_000 },
  );

/** Runs the Worker's every-minute cron now (the play inbox and trending, ADR 0028). */
export async function fireMinuteCron(apiUrl: string): Promise<void> {
  const answer = await fetch(
    `${apiUrl}/cdn-cgi/local/scheduled?cron=${encodeURIComponent("* * * * *")}`,
  );
  if (!answer.ok) throw new Error(`the scheduled handler answered ${answer.status}`);
}
