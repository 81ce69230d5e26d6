// A play heard (heard.ts says when) goes to the API: a signed-in listener's history, which counts
// the play too, or the anonymous report of a visitor (ADR 0028). Both are counted by the API's
// queue, once per listener (or network) and track in 10 minutes.
import { api, messageOf, unwrap } from "../api.ts";
import { account } from "../session.ts";
import type { QueueItem } from "./queue.ts";

/** `exp` and `sig` of an unlisted track's signed master URL (ADR 0026), or nothing. */
function signatureOf(item: QueueItem): { exp: string; sig: string } | null {
  if (!item.stream) return null;
  const query = new URL(item.stream, location.origin).searchParams;
  const [exp, sig] = [query.get("exp"), query.get("sig")];
  return exp && sig ? { exp, sig } : null;
}

export async function reportPlay(item: QueueItem): Promise<void> {
  try {
    // An unlisted track (heard through its signed URLs) is in nobody's history, which lists
    // public tracks only: its play is reported with the signature that proves it was heard.
    const signature = signatureOf(item);
    if (signature) {
      unwrap(await api().POST("/api/v1/plays", { body: { trackId: item.id, ...signature } }));
      return;
    }
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
