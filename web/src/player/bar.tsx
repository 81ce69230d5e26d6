// The player bar at the bottom of every page: what plays, controls, seek, volume, quality, queue.
import { useState } from "preact/hooks";
import { Cover } from "../ui/cover.tsx";
import { useFocusAt } from "../ui/focus.ts";
import { Icon } from "../ui/icons.tsx";
import { player } from "./engine.ts";
import { SeekBar } from "./seek-bar.tsx";

export function PlayerBar() {
  const current = player.current.value;
  const [queueOpen, setQueueOpen] = useState(false);
  const gain = player.gainDb.value;
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
              {current.artist.username}
            </a>
          )}
        </div>
      </div>
      <div class="controls">
        <div class="buttons">
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
      {queueOpen && <Queue />}
    </section>
  );
}

function Queue() {
  const index = player.index.value;
  // After a removal: the next entry's remove button, else the queue's heading.
  const { box, focusAt } = useFocusAt("button[data-remove]", (queue) =>
    queue?.querySelector<HTMLElement>("h2"),
  );
  return (
    <div id="queue" class="queue" ref={box}>
      <h2 class="small-heading" tabIndex={-1}>
        Queue
      </h2>
      {player.queue.value.length === 0 ? (
        <p class="muted">The queue is empty.</p>
      ) : (
        <ol>
          {player.queue.value.map((item, i) => (
            <li key={`${item.id}-${i}`} aria-current={i === index ? "true" : undefined}>
              <button type="button" class="link" onClick={() => void player.playAt(i)}>
                {item.title}
              </button>
              <span class="muted"> {item.artist?.username}</span>
              {i !== index && (
                <button
                  type="button"
                  class="icon small"
                  aria-label={`Remove ${item.title} from the queue`}
                  data-remove
                  onClick={() => {
                    // Counted among the remove buttons: the playing entry has none.
                    focusAt(i < index ? i : i - 1);
                    player.removeAt(i);
                  }}
                >
                  <Icon name="close" size={16} />
                </button>
              )}
            </li>
          ))}
        </ol>
      )}
    </div>
  );
}
