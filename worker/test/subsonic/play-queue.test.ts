import { describe, expect, it } from "vitest";
import { type Answer, appAccount, call, catalogue, errorCode, json } from "./support.ts";

const f = "json";
const QUEUE = "/api/v1/users/me/play-queue";

describe("Subsonic play queue: the REST API's saved queue", () => {
  it("an app's queue is the web player's, and the reverse; no id clears it", async () => {
    const { first, second, converting } = await catalogue();
    const account = await appAccount();
    const auth = { apiKey: account.appPassword, f };
    expect((await json(await call("getPlayQueue", auth))).playQueue).toBeUndefined();

    const saved = await call("savePlayQueue", {
      ...auth,
      id: [first.id, converting.id, second.id],
      current: second.id,
      position: "12500",
      c: "Symfonium",
    });
    expect(await errorCode(saved)).toBeUndefined();
    const rest = (await (await account.client.get(QUEUE)).json()) as Answer;
    expect(rest).toMatchObject({ current: second.id, position: 12.5, changedBy: "Symfonium" });
    expect((rest.tracks as Answer[]).map((t) => t.id)).toEqual([first.id, second.id]);

    const put = await account.client.put(QUEUE, {
      trackIds: [second.id],
      current: second.id,
      position: 3,
      client: "web",
    });
    expect(put.status).toBeLessThan(300);
    const queue = (await json(await call("getPlayQueue", auth))).playQueue;
    expect(queue).toMatchObject({
      current: second.id,
      position: 3000,
      username: account.username,
      changedBy: "web",
    });
    expect((queue.entry as Answer[]).map((s) => s.id)).toEqual([second.id]);

    expect(await errorCode(await call("savePlayQueue", auth))).toBeUndefined();
    expect((await json(await call("getPlayQueue", auth))).playQueue).toBeUndefined();
  });

  it("refuses a current song outside the queue (0), a malformed id (70), an artist account (50)", async () => {
    const { first, second } = await catalogue();
    const account = await appAccount();
    const auth = { apiKey: account.appPassword, f };
    const outside = await call("savePlayQueue", { ...auth, id: first.id, current: second.id });
    expect(await errorCode(outside)).toBe(0);
    expect(await errorCode(await call("savePlayQueue", { ...auth, id: "nope" }))).toBe(70);
    const artist = await appAccount("artist");
    const refused = await call("savePlayQueue", { apiKey: artist.appPassword, f, id: first.id });
    expect(await errorCode(refused)).toBe(50);
    expect(
      (await json(await call("getPlayQueue", { apiKey: artist.appPassword, f }))).playQueue,
    ).toBeUndefined();
  });
});
