// The refresher's word that a session has ended, told apart from a network that failed: the app
// signs the page out on the first, and keeps the account on the second. Pure logic: a fake fetch.
import { describe, expect, test } from "vitest";
import { type FetchLike, SessionRefresher } from "../src/session.ts";

const answering =
  (status: number): FetchLike =>
  async () =>
    new Response(null, { status });

describe("a refused refresh", () => {
  test("tells the app once per refusal, and the caller keeps its 401", async () => {
    let ended = 0;
    const refresher = new SessionRefresher(answering(401), "https://x/refresh", () => ended++);
    const first = refresher.withRetry(async () => new Response(null, { status: 401 }));
    const second = refresher.withRetry(async () => new Response(null, { status: 401 }));
    expect((await first).status).toBe(401);
    expect((await second).status).toBe(401);
    // Two calls met the same ended session: one refresh, one word.
    expect(ended).toBe(1);
  });

  test("says nothing when the refresh works, or when the network fails", async () => {
    let ended = 0;
    const fine = new SessionRefresher(answering(200), "https://x/refresh", () => ended++);
    expect(await fine.refreshSince(fine.epoch)).toBe(true);
    const offline = new SessionRefresher(
      async () => {
        throw new TypeError("Failed to fetch");
      },
      "https://x/refresh",
      () => ended++,
    );
    expect(await offline.refreshSince(offline.epoch)).toBe(false);
    const down = new SessionRefresher(answering(503), "https://x/refresh", () => ended++);
    expect(await down.refreshSince(down.epoch)).toBe(false);
    expect(ended).toBe(0);
  });

  test("a listener that throws does not break the call", async () => {
    const refresher = new SessionRefresher(answering(401), "https://x/refresh", () => {
      throw new Error("listener bug");
    });
    expect(await refresher.refreshSince(refresher.epoch)).toBe(false);
  });
});
