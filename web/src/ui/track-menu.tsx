// A track row's menu (a signed-in listener's): add the track to one of their playlists. A menu
// button as the ARIA pattern has it: the first item takes the focus, ↑ ↓ Home End move, Escape
// closes back to the button, Tab or a click elsewhere closes. The answer is a notice of the
// player bar: "Added …", or "Already in …" (the API skips a track the playlist has: nothing
// changes, not even its `updatedAt`).
import { useEffect, useId, useRef, useState } from "preact/hooks";
import { api, type components, messageOf, unwrap } from "../api.ts";
import { announce } from "../player/announce.ts";
import { Icon } from "./icons.tsx";
import { useResource } from "./resource.ts";

type OwnPlaylist = components["schemas"]["OwnPlaylist"];

/** Room under the button for the menu; with less, it opens upwards. */
const MENU_ROOM_PX = 300;

export function TrackMenu({ track }: { track: { id: string; title: string } }) {
  const [open, setOpen] = useState(false);
  const [upwards, setUpwards] = useState(false);
  const wrap = useRef<HTMLSpanElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const id = useId();
  const show = () => {
    const bottom = button.current?.getBoundingClientRect().bottom ?? 0;
    setUpwards(bottom > innerHeight - MENU_ROOM_PX);
    setOpen(true);
  };
  const close = (refocus: boolean) => {
    setOpen(false);
    if (refocus) button.current?.focus();
  };
  useEffect(() => {
    if (!open) return;
    const outside = (event: PointerEvent) => {
      if (!wrap.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener("pointerdown", outside);
    return () => document.removeEventListener("pointerdown", outside);
  }, [open]);
  return (
    <span class={upwards ? "track-menu up" : "track-menu"} ref={wrap}>
      <button
        ref={button}
        type="button"
        class="icon small"
        aria-label={`Add ${track.title} to a playlist`}
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? id : undefined}
        onClick={() => (open ? close(false) : show())}
        onKeyDown={(event) => {
          if (event.key !== "ArrowDown" && event.key !== "ArrowUp") return;
          event.preventDefault();
          show();
        }}
      >
        <Icon name="more" size={18} />
      </button>
      {open && <PlaylistMenu id={id} track={track} close={close} />}
    </span>
  );
}

function PlaylistMenu({
  id,
  track,
  close,
}: {
  id: string;
  track: { id: string; title: string };
  close: (refocus: boolean) => void;
}) {
  const menu = useRef<HTMLDivElement>(null);
  // Read at each opening, so `updatedAt` is the one the add is compared with.
  const playlists = useResource(
    async (signal) =>
      unwrap(
        await api("user").GET("/api/v1/playlists/me", {
          params: { query: { limit: 100 } },
          signal,
        }),
      ),
    [],
  );
  const items = () => [...(menu.current?.querySelectorAll<HTMLElement>("[role=menuitem]") ?? [])];
  const focusItem = (i: number) => {
    const all = items();
    all[(i + all.length) % all.length]?.focus();
  };
  // The first item takes the focus, again when the playlists replace "Loading".
  useEffect(() => focusItem(0), [playlists.data, playlists.error]);

  const onKeyDown = (event: KeyboardEvent) => {
    const at = items().indexOf(document.activeElement as HTMLElement);
    const to = { ArrowDown: at + 1, ArrowUp: at - 1, Home: 0, End: -1 }[event.key];
    if (to !== undefined) {
      event.preventDefault();
      focusItem(to);
    } else if (event.key === "Escape") {
      event.preventDefault();
      close(true);
    } else if (event.key === "Tab") close(false);
  };

  const add = async (playlist: OwnPlaylist) => {
    close(true);
    try {
      const answer = unwrap(
        await api("user").POST("/api/v1/playlists/{id}/tracks", {
          params: { path: { id: playlist.id } },
          body: { trackIds: [track.id] },
        }),
      );
      announce(
        answer.updatedAt === playlist.updatedAt
          ? `Already in ${answer.title}.`
          : `Added ${track.title} to ${answer.title}.`,
      );
    } catch (error) {
      announce(`Not added to ${playlist.title}: ${messageOf(error)}`, { alert: true });
    }
  };

  const list = playlists.data;
  return (
    <div
      role="menu"
      id={id}
      aria-label={`Add ${track.title} to a playlist`}
      ref={menu}
      onKeyDown={onKeyDown}
    >
      {!list ? (
        <span role="menuitem" aria-disabled="true" tabIndex={-1}>
          {playlists.error ? messageOf(playlists.error) : "Loading playlists…"}
        </span>
      ) : list.length === 0 ? (
        <a role="menuitem" href="/library" tabIndex={-1}>
          Create a playlist first
        </a>
      ) : (
        list.map((playlist) => (
          <button
            key={playlist.id}
            type="button"
            role="menuitem"
            tabIndex={-1}
            onClick={() => void add(playlist)}
          >
            {playlist.title}
          </button>
        ))
      )}
    </div>
  );
}
