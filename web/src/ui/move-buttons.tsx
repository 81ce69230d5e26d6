// A row's "move up" and "move down" in a list the person orders (a playlist's tracks, an album's).
import { Icon } from "./icons.tsx";

export function MoveButtons({
  title,
  id,
  index,
  last,
  onMove,
}: {
  /** What the row is called, for the buttons' names ("Move <title> up"). */
  title: string;
  /** The row's key, for the buttons' `data-key` (where the focus goes after a move). */
  id: string;
  index: number;
  last: number;
  onMove: (index: number, by: -1 | 1) => void;
}) {
  return (
    <>
      <button
        type="button"
        class="icon small"
        aria-label={`Move ${title} up`}
        data-key={`up ${id}`}
        disabled={index === 0}
        onClick={() => onMove(index, -1)}
      >
        <Icon name="up" size={16} />
      </button>
      <button
        type="button"
        class="icon small"
        aria-label={`Move ${title} down`}
        data-key={`down ${id}`}
        disabled={index === last}
        onClick={() => onMove(index, 1)}
      >
        <Icon name="down" size={16} />
      </button>
    </>
  );
}
