// A signed-in listener's queue on the server (GET/PUT /users/me/play-queue), so that another device
// goes on from there. Read once per sign-in: the server's queue replaces this browser's when
// this one has none, or when it is older and was saved by another browser, and only while
// nothing was done here yet. Saved a moment after the queue, the track or play/pause changes,
// every 15 s of playing, and when the page goes away (keepalive). Signing out empties this
// browser's queue: the next person here does not get it (it waits on the server).
import { effect } from "@preact/signals";
import { api, type components, unwrap } from "../api.ts";
import { account } from "../session.ts";
import { toQueueItem } from "../ui/track-list.tsx";
import { player } from "./engine.ts";
import { serverCopyWins, windowStart } from "./saved-queue.ts";

type ServerQueue = components["schemas"]["PlayQueue"];

const DEVICE_KEY = "edge-music.device";
/** The most the API keeps (PLAY_QUEUE_MAX): a longer queue sends a window around the current. */
const SERVER_ITEMS_MAX = 1000;
/** A change is sent this long after it (more changes meanwhile go with it). */
const SAVE_AFTER_MS = 1_500;
/** Seconds of playing between two saves of the position alone. */
const POSITION_EVERY_MS = 15_000;

/** This browser's name in `changedBy` ("web 1a2b3c4d"): its own saves are not news to it. */
function clientName(): string {
  let id: string | null = null;
  try {
    id = localStorage.getItem(DEVICE_KEY);
    if (!id || !/^[0-9a-f]{8}$/.test(id)) {
      id = crypto.randomUUID().slice(0, 8);
      localStorage.setItem(DEVICE_KEY, id);
    }
  } catch {
    id ??= crypto.randomUUID().slice(0, 8);
  }
  return `web ${id}`;
}

const serverWins = (server: ServerQueue, me: string) =>
  serverCopyWins(
    { changedAt: server.changedAt, changedBy: server.changedBy, tracks: server.tracks.length },
    { acted: player.acted, entries: player.queue.peek().length, changedAt: player.changedAt() },
    me,
  );

function body(client: string) {
  const { items, index } = player.state.peek();
  const start = windowStart(items.length, index, SERVER_ITEMS_MAX);
  const trackIds = items.slice(start, start + SERVER_ITEMS_MAX).map((item) => item.id);
  const current = items[index]?.id ?? null;
  const position = Math.min(86_400, Math.max(0, player.position()));
  return { trackIds, current: index >= 0 ? current : null, position, client };
}

/** Keeps the signed-in listener's queue on the server; answers the function that stops. */
export function syncQueueWithServer(): () => void {
  const me = clientName();
  /** The listener whose queue was read; saving waits for the read. */
  let readFor: string | null = null;
  let ready = false;
  let adopting = false;
  let dirty = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let sentAt = 0;

  const save = (keepalive = false) => {
    clearTimeout(timer);
    if (!ready) return;
    dirty = false;
    sentAt = Date.now();
    void api("user")
      .PUT("/api/v1/users/me/play-queue", { body: body(me), keepalive })
      .catch((error: unknown) => console.warn("queue not saved on the server:", error));
  };
  const later = () => {
    dirty = true;
    clearTimeout(timer);
    timer = setTimeout(save, SAVE_AFTER_MS);
  };

  const adopt = (server: ServerQueue) => {
    const items = server.tracks.map((track) => toQueueItem(track));
    const index = server.current ? server.tracks.findIndex((t) => t.id === server.current) : -1;
    adopting = true;
    player.restore({
      items,
      index,
      ranks: null,
      position: index >= 0 ? server.position : 0,
      repeat: player.repeat.peek(),
      savedAt: Date.parse(server.changedAt ?? "") || 0,
    });
    adopting = false;
  };

  const stopAccount = effect(() => {
    const current = account.value;
    const userId = current?.kind === "user" ? current.user.id : null;
    if (userId === readFor) return;
    // Another account now, or none: the one that leaves takes its queue along.
    if (readFor) {
      clearTimeout(timer);
      player.forget();
    }
    readFor = userId;
    ready = false;
    if (!userId) return;
    api("user")
      .GET("/api/v1/users/me/play-queue")
      .then(unwrap)
      .then(
        (server) => {
          if (readFor !== userId) return;
          const wins = serverWins(server, me);
          if (wins) adopt(server);
          ready = true;
          sentAt = Date.now();
          // This browser's queue is the newer one: the server gets it.
          if (!wins && player.queue.peek().length > 0) later();
        },
        (error: unknown) => console.warn("the saved queue could not be read:", error),
      );
  });

  let seen: unknown[] = [];
  const stopChanges = effect(() => {
    const changes = [player.queue.value, player.index.value, player.playing.value];
    const time = player.currentTime.value;
    const changed = changes.some((value, i) => value !== seen[i]);
    const first = seen.length === 0;
    seen = changes;
    if (first || adopting || !ready) return;
    if (changed) later();
    else if (time > 0 && player.playing.peek() && Date.now() - sentAt >= POSITION_EVERY_MS) save();
  });

  const onHide = () => {
    if (dirty || player.playing.peek()) save(true);
  };
  addEventListener("pagehide", onHide);
  return () => {
    clearTimeout(timer);
    stopAccount();
    stopChanges();
    removeEventListener("pagehide", onHide);
  };
}
