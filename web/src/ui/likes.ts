// The signed-in listener's liked tracks as a set of ids: read once (GET /tracks/me/liked/ids) when
// the first heart shows, then kept by each press, so every row knows its heart without a request
// of its own. Presses of one track are sent in order: the last one is what the server keeps.
import { signal } from "@preact/signals";
import { api, unwrap } from "../api.ts";
import { account } from "../session.ts";

/** null: not read (yet), or no listener signed in. */
export const likedIds = signal<ReadonlySet<string> | null>(null);

/** The listener whose ids are read or being read. */
let readFor: string | null = null;
const sending = new Map<string, Promise<unknown>>();

/** Reads the ids for the listener signed in now, once (again after another one signs in). */
export function loadLikedIds(): void {
  const current = account.peek();
  const userId = current?.kind === "user" ? current.user.id : null;
  if (userId === readFor) return;
  readFor = userId;
  likedIds.value = null;
  if (!userId) return;
  api("user")
    .GET("/api/v1/tracks/me/liked/ids")
    .then(unwrap)
    .then(
      (ids) => {
        if (readFor === userId) likedIds.value = new Set([...(likedIds.peek() ?? []), ...ids]);
      },
      () => {
        if (readFor === userId) readFor = null; // Tried again by the next heart that shows.
      },
    );
}

const withId = (trackId: string, liked: boolean): ReadonlySet<string> => {
  const next = new Set(likedIds.peek() ?? []);
  if (liked) next.add(trackId);
  else next.delete(trackId);
  return next;
};

/** Once every like or unlike sent so far has its answer (a list of likes read after sees them). */
export async function likesSent(): Promise<void> {
  await Promise.allSettled([...sending.values()]);
}

/** Likes or unlikes at once on screen; back as it was if the API refuses. */
export function setLiked(trackId: string, liked: boolean): Promise<void> {
  likedIds.value = withId(trackId, liked);
  // keepalive: a press just before the page goes (a reload, a closed tab) still counts.
  const path = { params: { path: { id: trackId } }, keepalive: true };
  const send = async () => {
    const client = api("user");
    unwrap(
      await (liked
        ? client.POST("/api/v1/tracks/{id}/like", path)
        : client.DELETE("/api/v1/tracks/{id}/like", path)),
    );
  };
  const done = (sending.get(trackId) ?? Promise.resolve()).catch(() => undefined).then(send);
  sending.set(trackId, done);
  const forget = () => {
    if (sending.get(trackId) === done) sending.delete(trackId);
  };
  done.then(forget, forget);
  return done.catch((error: unknown) => {
    likedIds.value = withId(trackId, !liked);
    throw error;
  });
}
