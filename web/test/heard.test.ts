import { describe, expect, test } from "vitest";
import { HeardTime, PLAY_SECONDS } from "../src/player/heard.ts";

/** Time updates every quarter second from `from` to `to`, as the element sends them. */
function play(heard: HeardTime, from: number, to: number): void {
  for (let t = from; t <= to + 1e-9; t += 0.25) heard.at(t);
}

describe("the time heard of a track", () => {
  test("a long track counts once 30 s were heard, not before", () => {
    const heard = new HeardTime();
    play(heard, 0, 29.5);
    expect(heard.counts(200)).toBe(false);
    play(heard, 29.75, 30.25);
    expect(heard.counts(200)).toBe(true);
  });

  test("a seek is no listening: jumping to the end of a short track does not count", () => {
    const heard = new HeardTime();
    play(heard, 0, 1);
    heard.jump();
    play(heard, 18.5, 19.75);
    heard.end(20);
    expect(heard.seconds).toBeCloseTo(2.5, 5);
    expect(heard.counts(20)).toBe(false);
  });

  test("a short track counts when heard to its end, its last moment included", () => {
    const heard = new HeardTime();
    // The first update comes a little after the start, the last a little before the end.
    play(heard, 0.2, 17.7);
    expect(heard.counts(20)).toBe(false);
    play(heard, 17.95, 19.7);
    heard.end(20);
    expect(heard.seconds).toBeCloseTo(19.8, 5);
    expect(heard.counts(20)).toBe(true);
  });

  test("a jump the element did not announce is not heard either; going back is heard again", () => {
    const heard = new HeardTime();
    play(heard, 0, 10);
    heard.at(100); // 90 s skipped in one update
    expect(heard.seconds).toBeCloseTo(10, 5);
    heard.jump();
    play(heard, 0, 20); // the first 20 s again
    expect(heard.seconds).toBeCloseTo(30, 5);
    expect(heard.counts(300)).toBe(true);
  });

  test("pauses add nothing; the time goes on from where it stopped", () => {
    const heard = new HeardTime();
    play(heard, 0, 10);
    heard.jump(); // paused
    heard.at(10); // resumed
    play(heard, 10.25, 20);
    expect(heard.seconds).toBeCloseTo(20, 5);
  });

  test("a track of unknown length counts at 30 s; reset starts a new play", () => {
    const heard = new HeardTime();
    play(heard, 0, PLAY_SECONDS);
    expect(heard.counts(null)).toBe(true);
    heard.reset();
    expect(heard.seconds).toBe(0);
    expect(heard.counts(null)).toBe(false);
  });
});
