// An artist's page: profile, tracks (play all), albums; a signed-in listener follows or likes.
import { useState } from "preact/hooks";
import { api, type components, unwrap } from "../api.ts";
import { player } from "../player/engine.ts";
import { account } from "../session.ts";
import { useAction } from "../ui/action.ts";
import { albumCard, Cards } from "../ui/cards.tsx";
import { Cover } from "../ui/cover.tsx";
import { plural, shownName } from "../ui/format.ts";
import { PageTitle } from "../ui/headings.tsx";
import { ErrorMessage, Loading } from "../ui/messages.tsx";
import { PagedList, usePaged } from "../ui/paged.tsx";
import { useResource } from "../ui/resource.ts";
import { ShareButton } from "../ui/share-button.tsx";
import { SignInFirst } from "../ui/sign-in-first.tsx";
import { type TrackLike, TrackList, toQueueItem } from "../ui/track-list.tsx";

/**
 * Another artist's id (a link from one artist to another, back and forward) is a new page: the router
 * keeps the component, so without the key the last artist and its state would stay on screen.
 */
export function ArtistPage({ id }: { id: string }) {
  return <ArtistView key={id} id={id} />;
}

/** An artist's tracks and albums are read 50 at a time. */
const ARTIST_PAGE = 50;

function ArtistView({ id }: { id: string }) {
  const client = api();
  const path = { path: { id } };
  // Three reads at once: the profile, the first page of tracks and of albums.
  const profile = useResource(
    async (signal) => unwrap(await client.GET("/api/v1/artists/{id}", { params: path, signal })),
    [],
  );
  const tracks = usePaged(
    (page, signal) =>
      client
        .GET("/api/v1/artists/{id}/tracks", {
          params: { ...path, query: { page, limit: ARTIST_PAGE } },
          signal,
        })
        .then(unwrap),
    ARTIST_PAGE,
    (track) => track.id,
  );
  const albums = usePaged(
    (page, signal) =>
      client
        .GET("/api/v1/artists/{id}/albums", {
          params: { ...path, query: { page, limit: ARTIST_PAGE } },
          signal,
        })
        .then(unwrap),
    ARTIST_PAGE,
    (album) => album.id,
  );
  if (profile.error) return <ErrorMessage error={profile.error} />;
  const artist = profile.data;
  if (!artist) return <Loading />;
  const name = shownName(artist);
  return (
    <>
      <ArtistHeader artist={artist} tracks={tracks.rows ?? []} />
      <section aria-labelledby="artist-tracks">
        <h2 id="artist-tracks">Tracks</h2>
        <PagedList list={tracks} focus="li button:first-of-type">
          {(rows) => <TrackList tracks={rows} label={`Tracks of ${name}`} artistName={name} />}
        </PagedList>
      </section>
      <section aria-labelledby="artist-albums">
        <h2 id="artist-albums">Albums</h2>
        <PagedList list={albums} focus="a">
          {(rows) => (
            <Cards
              label={`Albums of ${name}`}
              empty="No albums yet."
              items={rows.map((a) => albumCard(a, a.releasedAt?.slice(0, 4)))}
            />
          )}
        </PagedList>
      </section>
    </>
  );
}

type Artist = components["schemas"]["ArtistWithViewer"];

/**
 * The profile, its follower and like counts, Play all, and for a signed-in listener Follow and
 * Like (their state from the read's `viewer`; each press answers the new count).
 */
function ArtistHeader({ artist, tracks }: { artist: Artist; tracks: TrackLike[] }) {
  const [counts, setCounts] = useState(artist._count);
  const name = shownName(artist);
  return (
    <header class="profile">
      <Cover src={artist.avatar} size={128} alt={`${name}'s picture`} />
      <div>
        <p class="muted small">Artist</p>
        <PageTitle title={name}>{name}</PageTitle>
        <p class="muted">@{artist.username}</p>
        <p class="muted small">
          {plural(counts.followers, "follower")} · {plural(counts.likes, "like")}
        </p>
        {artist.bio && <p>{artist.bio}</p>}
        <div class="row">
          <button
            type="button"
            class="primary"
            disabled={tracks.length === 0}
            onClick={() => void player.playQueue(tracks.map((t) => toQueueItem(t, name)))}
          >
            Play all
          </button>
          <ShareButton kind="artists" id={artist.id} title={name} />
          {account.value?.kind === "user" && (
            <FollowAndLike
              key={artist.id}
              artistId={artist.id}
              name={name}
              viewer={artist.viewer}
              onCount={(count) => setCounts((c) => ({ ...c, ...count }))}
            />
          )}
          {account.value === null && (
            // A visitor: the same two, by way of the sign-in and back here.
            <>
              <SignInFirst class="button">Follow {name}</SignInFirst>
              <SignInFirst class="button">Like</SignInFirst>
            </>
          )}
        </div>
      </div>
    </header>
  );
}

/** Follow and like, from the listener's relation that came with the artist's read (`viewer`). */
function FollowAndLike({
  artistId,
  name,
  viewer,
  onCount,
}: {
  artistId: string;
  name: string;
  viewer: { following: boolean; liked: boolean } | undefined;
  onCount: (count: { followers: number } | { likes: number }) => void;
}) {
  const client = api("user");
  const [following, setFollowing] = useState(viewer?.following ?? false);
  const [liked, setLiked] = useState(viewer?.liked ?? false);
  const { busy, error, run } = useAction();
  const path = { params: { path: { id: artistId } } };
  return (
    <>
      <button
        type="button"
        aria-pressed={following}
        disabled={busy}
        onClick={() =>
          run(async () => {
            const state = following
              ? unwrap(await client.DELETE("/api/v1/artists/{id}/follow", path))
              : unwrap(await client.POST("/api/v1/artists/{id}/follow", path));
            setFollowing(!following);
            onCount(state._count);
          })
        }
      >
        {following ? `Following ${name}` : `Follow ${name}`}
      </button>
      <button
        type="button"
        aria-pressed={liked}
        disabled={busy}
        onClick={() =>
          run(async () => {
            const state = liked
              ? unwrap(await client.DELETE("/api/v1/artists/{id}/like", path))
              : unwrap(await client.POST("/api/v1/artists/{id}/like", path));
            setLiked(state.liked);
            onCount(state._count);
          })
        }
      >
        {liked ? "Liked" : "Like"}
      </button>
      <ErrorMessage error={error} />
    </>
  );
}
