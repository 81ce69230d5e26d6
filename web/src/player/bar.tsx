// The player bar at the bottom of every page: what plays, controls (shuffle and repeat among
// them), seek, volume, quality, the queue's panel, and the player's spoken (and shown) notices.
import { useEffect, useState } from "preact/hooks";
import { Cover } from "../ui/cover.tsx";
import { Icon } from "../ui/icons.tsx";
import { useWayBackAfterSignIn } from "../ui/sign-in-first.tsx";
import { announce, announcement } from "./announce.ts";
import { player } from "./engine.ts";
import { keepQueue } from "./keep-queue.ts";
import { artistName } from "./queue.ts";
import { QueuePanel } from "./queue-panel.tsx";
import { SeekBar } from "./seek-bar.tsx";
import "./player.css";

/** How long a notice stays on screen (screen readers have read it by then). */
const NOTICE_MS = 6_000;
const REPEAT_LABELS = { off: "Repeat off", all: "Repeat all", one: "Repeat one" } as const;

export function PlayerBar() {
  const current = player.current.value;
  const [queueOpen, setQueueOpen] = useState(false);
  const gain = player.gainDb.value;
  const repeat = player.repeat.value;
  useEffect(() => keepQueue(), []);
  // The bar is on every page, in the router: after a sign-in for a like or a follow, back there.
  useWayBackAfterSignIn();
  return (
    <section class="player" aria-label="Player">
      <div class="now">
        <Cover src={current?.cover} size={48} />
        <div class="now-text">
          <strong class="ellipsis" data-testid="now-playing">
            {current ? current.title : "Nothing playing"}
          </strong>
          {current?.artist && (
            <a class="muted ellipsis" href={`/artists/${current.artist.id}`}>
              {artistName(current.artist)}
            </a>
          )}
        </div>
      </div>
      <div class="controls">
        <div class="buttons">
          <button
            type="button"
            class="icon mode"
            aria-label="Shuffle"
            aria-pressed={player.shuffle.value}
            onClick={() => player.toggleShuffle()}
          >
            <Icon name="shuffle" />
          </button>
          <button
            type="button"
            class="icon"
            aria-label="Previous track"
            onClick={() => player.previous()}
            disabled={!current}
          >
            <Icon name="previous" />
          </button>
          <button
            type="button"
            class="icon play"
            aria-label={player.playing.value ? "Pause" : "Play"}
            onClick={() => player.toggle()}
            disabled={!current && player.queue.value.length === 0}
          >
            <Icon name={player.playing.value ? "pause" : "play"} size={24} />
          </button>
          <button
            type="button"
            class="icon"
            aria-label="Next track"
            onClick={() => player.next()}
            disabled={!current}
          >
            <Icon name="next" />
          </button>
          <button
            type="button"
            class={repeat === "off" ? "icon mode" : "icon mode on"}
            aria-label={REPEAT_LABELS[repeat]}
            title={`${REPEAT_LABELS[repeat]} (press to change)`}
            onClick={() => {
              player.cycleRepeat();
              announce(`${REPEAT_LABELS[player.repeat.value]}.`);
            }}
          >
            <Icon name={repeat === "one" ? "repeatOne" : "repeat"} />
          </button>
        </div>
        <SeekBar />
        {player.error.value && (
          <p class="error small" role="alert">
            {player.error.value}
          </p>
        )}
      </div>
      <div class="extras">
        <span class="badge" data-testid="quality" title="The stream's current quality (adaptive)">
          {player.quality.value ?? "auto"}
        </span>
        <button
          type="button"
          class="badge toggle"
          aria-pressed={player.normalise.value}
          title={
            gain == null
              ? "Loudness normalisation"
              : `Loudness normalisation (${gain > 0 ? "+" : ""}${gain.toFixed(1)} dB)`
          }
          onClick={() => player.setNormalise(!player.normalise.value)}
        >
          Normalise
        </button>
        <button
          type="button"
          class="icon"
          aria-label={player.muted.value ? "Unmute" : "Mute"}
          onClick={() => player.toggleMute()}
        >
          <Icon name={player.muted.value || player.volume.value === 0 ? "mute" : "volume"} />
        </button>
        <input
          type="range"
          class="volume"
          aria-label="Volume"
          min={0}
          max={1}
          step={0.05}
          value={player.muted.value ? 0 : player.volume.value}
          onInput={(event) => player.setVolume(Number(event.currentTarget.value))}
        />
        <button
          type="button"
          class="badge"
          aria-expanded={queueOpen}
          aria-controls="queue"
          onClick={() => setQueueOpen(!queueOpen)}
        >
          Queue ({player.queue.value.length})
        </button>
      </div>
      {queueOpen && <QueuePanel />}
      <Notice />
    </section>
  );
}

/**
 * The player's notices, the latest shown a while above the bar: a polite live region always in
 * the page (so its news are read), and an alert only while it has one (inserted with its
 * sentence, it is read at once; an empty alert would count as one on every page).
 */
function Notice() {
  const { text, n, alert } = announcement.value;
  const [shown, setShown] = useState(0);
  useEffect(() => {
    setShown(n);
    const timer = setTimeout(() => setShown(-1), NOTICE_MS);
    return () => clearTimeout(timer);
  }, [n]);
  const visible = text !== "" && shown === n;
  // A new element per notice: the same sentence twice is announced twice.
  const notice = visible && <p key={n}>{text}</p>;
  return (
    <>
      <div role="status" class={visible && !alert ? "notice" : "visually-hidden"}>
        {!alert && notice}
      </div>
      {alert && visible && (
        <div role="alert" class="notice error">
          {notice}
        </div>
      )}
    </>
  );
}
