// A track's heart: a toggle (aria-pressed) for a signed-in listener, a way to sign in first for
// a visitor, nothing for an artist's account. On a row it is an icon named "Keep <title> in
// liked tracks" (a row's buttons all name their track; "Like" alone is the artist's own button
// on an artist page); on the track's page a labelled button, "Like" or "Liked" as the artist's.
import { useEffect } from "preact/hooks";
import { messageOf } from "../api.ts";
import { announce } from "../player/announce.ts";
import { account } from "../session.ts";
import { Icon } from "./icons.tsx";
import { likedIds, loadLikedIds, setLiked } from "./likes.ts";
import { SignInFirst } from "./sign-in-first.tsx";

export function LikeButton({
  track,
  labelled = false,
}: {
  track: { id: string; title: string };
  /** With its word ("Like", "Liked") beside the heart, named by it. */
  labelled?: boolean;
}) {
  const current = account.value;
  const listener = current?.kind === "user";
  // Read for the listener signed in now (forgotten when none is).
  useEffect(() => loadLikedIds(), [current]);
  if (current === null) {
    return (
      <SignInFirst
        label={labelled ? undefined : "Sign in to like tracks"}
        class={labelled ? "button heart" : "button icon small heart"}
      >
        <Icon name="heartOutline" size={18} />
        {labelled && " Like"}
      </SignInFirst>
    );
  }
  if (!listener) return null;
  const liked = likedIds.value?.has(track.id) ?? false;
  return (
    <button
      type="button"
      class={labelled ? "heart" : "icon small heart"}
      aria-label={labelled ? undefined : `Keep ${track.title} in liked tracks`}
      aria-pressed={liked}
      onClick={() =>
        setLiked(track.id, !liked).catch((error: unknown) =>
          announce(`${track.title}: ${messageOf(error)}`, { alert: true }),
        )
      }
    >
      <Icon name={liked ? "heart" : "heartOutline"} size={18} />
      {labelled && (liked ? " Liked" : " Like")}
    </button>
  );
}
