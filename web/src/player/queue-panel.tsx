// The queue as a list, opened from the player bar: play an entry, move it up or down (buttons, or
// drag with a mouse), remove it, clear the rest. Moves are announced; the keyboard focus follows
// the moved entry, and after a removal goes to the next entry's remove button (else the heading).
// Below it, the setting that keeps the music going with similar tracks when the queue ends.
import { useState } from "preact/hooks";
import { useFocusNext } from "../ui/focus.ts";
import { Icon } from "../ui/icons.tsx";
import { MoveButtons } from "../ui/move-buttons.tsx";
import { announce } from "./announce.ts";
import { player } from "./engine.ts";
import { artistName } from "./queue.ts";

type Way = "up" | "down";

export function QueuePanel() {
  const { items, index } = player.state.value;
  const { box, focusNext } = useFocusNext((queue) => queue?.querySelector<HTMLElement>("h2"));
  /** The entry a mouse drags, and the one it is over. */
  const [drag, setDrag] = useState<{ from: number; over: number } | null>(null);
  const last = items.length - 1;

  const move = (from: number, to: number, way?: Way) => {
    const item = items[from];
    if (!item || to < 0 || to > last || from === to) return;
    player.move(from, to);
    if (way) {
      // The same button of the moved entry, or its other one at the end of the list.
      const other = way === "up" ? "down" : "up";
      focusNext((queue) =>
        [way, other]
          .map((w) => queue.querySelector<HTMLElement>(`[data-key="${w} ${to}"]:not(:disabled)`))
          .find(Boolean),
      );
    }
    announce(`Moved ${item.title} to position ${to + 1} of ${items.length}.`);
  };

  const remove = (i: number) => {
    // Counted among the remove buttons: the playing entry has none.
    const at = i < index || index < 0 ? i : i - 1;
    focusNext((queue) => {
      const all = queue.querySelectorAll<HTMLElement>("button[data-remove]");
      return all[Math.min(at, all.length - 1)];
    });
    player.removeAt(i);
  };

  const clear = () => {
    player.clear();
    focusNext(() => null);
    announce(index >= 0 ? "Cleared the queue but for the track playing." : "Cleared the queue.");
  };

  return (
    <div id="queue" class="queue queue-panel" ref={box}>
      <div class="queue-head">
        <h2 class="small-heading" tabIndex={-1}>
          Queue
        </h2>
        {items.length > (index >= 0 ? 1 : 0) && (
          <button type="button" class="badge" onClick={clear}>
            Clear queue
          </button>
        )}
      </div>
      {items.length === 0 ? (
        <p class="muted">The queue is empty.</p>
      ) : (
        <ol aria-label="Tracks in the queue">
          {items.map((item, i) => (
            <li
              key={`${item.id}-${i}`}
              aria-current={i === index ? "true" : undefined}
              class={drag && drag.over === i && drag.from !== i ? "drop-here" : undefined}
              draggable
              onDragStart={(event) => {
                event.dataTransfer?.setData("text/plain", item.title);
                if (event.dataTransfer) event.dataTransfer.effectAllowed = "move";
                setDrag({ from: i, over: i });
              }}
              onDragOver={(event) => {
                if (!drag) return;
                event.preventDefault();
                if (drag.over !== i) setDrag({ ...drag, over: i });
              }}
              onDrop={(event) => {
                event.preventDefault();
                if (drag) move(drag.from, i);
                setDrag(null);
              }}
              onDragEnd={() => setDrag(null)}
            >
              <span class="drag-handle" aria-hidden="true" title="Drag to move">
                <Icon name="drag" size={16} />
              </span>
              <span class="queue-entry">
                <button type="button" class="link ellipsis" onClick={() => void player.playAt(i)}>
                  {item.title}
                </button>
                {item.artist && <span class="muted ellipsis">{artistName(item.artist)}</span>}
              </span>
              {/* Keyed by place: the same track may be queued twice. */}
              <MoveButtons
                title={item.title}
                id={String(i)}
                index={i}
                last={last}
                onMove={(at, by) => move(at, at + by, by < 0 ? "up" : "down")}
              />
              {i !== index ? (
                <button
                  type="button"
                  class="icon small"
                  aria-label={`Remove ${item.title} from the queue`}
                  data-remove
                  onClick={() => remove(i)}
                >
                  <Icon name="close" size={16} />
                </button>
              ) : (
                <span class="icon-space" />
              )}
            </li>
          ))}
        </ol>
      )}
      <label class="similar-setting muted small">
        <input
          type="checkbox"
          checked={player.similar.value}
          onChange={(event) => player.setSimilar(event.currentTarget.checked)}
        />
        Keep playing similar tracks when the queue ends
      </label>
    </div>
  );
}
