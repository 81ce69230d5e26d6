// A grid of linked cards (artists, albums, playlists): a picture, a name, an optional line under.
import { Cover } from "./cover.tsx";
import { shownName } from "./format.ts";

export interface Card {
  id: string;
  href: string;
  picture: string | null;
  name: string;
  /** A short line under the name ("12 followers"). */
  note?: string | undefined;
}

export function Cards({ items, label, empty }: { items: Card[]; label: string; empty?: string }) {
  if (items.length === 0) return empty ? <p class="muted">{empty}</p> : null;
  return (
    <ul class="cards" aria-label={label}>
      {items.map((item) => (
        <li key={item.id} class="card">
          <a href={item.href}>
            <Cover src={item.picture} size={96} />
            <span class="ellipsis">{item.name}</span>
          </a>
          {item.note && <span class="muted small">{item.note}</span>}
        </li>
      ))}
    </ul>
  );
}

/** Cards of the API's shapes. */
export const artistCard = (
  a: { id: string; username: string; displayName?: string | null; avatar: string | null },
  note?: string,
): Card => ({
  id: a.id,
  href: `/artists/${a.id}`,
  picture: a.avatar,
  name: shownName(a),
  note,
});
export const albumCard = (
  a: { id: string; title: string; cover: string | null },
  note?: string,
): Card => ({
  id: a.id,
  href: `/albums/${a.id}`,
  picture: a.cover,
  name: a.title,
  note,
});
export const playlistCard = (
  p: { id: string; title: string; cover: string | null },
  note?: string,
): Card => ({
  id: p.id,
  href: `/playlists/${p.id}`,
  picture: p.cover,
  name: p.title,
  note,
});
