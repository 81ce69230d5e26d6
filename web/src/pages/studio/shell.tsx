// What every studio page shares: the artist-only gate, the studio's navigation, paged reads.
import type { ComponentChildren } from "preact";
import { useLocation } from "preact-iso";
import { api, unwrap } from "../../api.ts";
import type { ArtistAccount } from "../../session.ts";
import { OnlyFor } from "../../ui/gate.tsx";
import { useResource } from "../../ui/resource.ts";

/** The page for a signed-in artist, under the studio's navigation; a way to sign in for anyone else. */
export function ArtistOnly({
  title,
  children,
}: {
  title: string;
  children: (artist: ArtistAccount) => ComponentChildren;
}) {
  return (
    <OnlyFor kind="artist" title={title} why="as an artist to use the studio">
      {(current) => (
        <>
          <StudioNav />
          {children(current.artist)}
        </>
      )}
    </OnlyFor>
  );
}

const LINKS = [
  ["/studio", "Tracks"],
  ["/studio/upload", "Upload"],
  ["/studio/albums", "Albums"],
  ["/studio/profile", "Profile"],
  ["/studio/stats", "Statistics"],
] as const;

function StudioNav() {
  const { path } = useLocation();
  return (
    <nav aria-label="Studio">
      <ul class="row plain">
        {LINKS.map(([href, text]) => (
          <li key={href}>
            <a href={href} aria-current={path === href ? "page" : undefined}>
              {text}
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}

/** The largest page the API serves. */
const LIMIT = 100;

/** Every item of a paged list: pages of LIMIT until a shorter one (the last). */
export async function allPages<T>(read: (page: number, limit: number) => Promise<T[]>) {
  const all: T[] = [];
  for (let page = 1; ; page++) {
    const items = await read(page, LIMIT);
    all.push(...items);
    if (items.length < LIMIT) return all;
  }
}

/** Every one of the signed-in artist's tracks, in every state (all their pages). */
export const useOwnTracks = () =>
  useResource(
    (signal) =>
      allPages(async (page, limit) =>
        unwrap(
          await api("artist").GET("/api/v1/artists/me/tracks", {
            params: { query: { page, limit } },
            signal,
          }),
        ),
      ),
    [],
  );
