// A play heard (heard.ts says when) goes to the API: a signed-in listener's history, which counts
// the play too, or the anonymous report of a visitor (ADR 0028). Both are counted by the API's
// queue, once per listener (or network) and track in 10 minutes.
import { api, messageOf, unwrap } from "../api.ts";
import { account } from "../session.ts";
import type { QueueItem } from "./queue.ts";

export async function reportPlay(item: QueueItem): Promise<void> {
  try {
    if (account.value?.kind === "user") {
      unwrap(
        await api("user").POST("/api/v1/history/tracks/{trackId}", {
          params: { path: { trackId: item.id } },
        }),
      );
      return;
    }
    // Anyone else (a visitor, an artist listening): a play heard from this network.
    unwrap(
      await api().POST("/api/v1/plays", {
        body: { trackId: item.id },
      }),
    );
  } catch (error) {
    // A play not counted is no reason to stop the music.
    console.warn("play not reported:", messageOf(error));
  }
}
