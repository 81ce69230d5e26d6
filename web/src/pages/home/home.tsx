// The front page: a listener's feed, then the newest tracks, artists and public playlists (public
// reads, edge-cached).
import { api, unwrap } from "../../api.ts";
import { signedInAs } from "../../session.ts";
import { artistCard, Cards, playlistCard } from "../../ui/cards.tsx";
import { plural } from "../../ui/format.ts";
import { PageTitle } from "../../ui/headings.tsx";
import { ErrorMessage, Loading } from "../../ui/messages.tsx";
import { useResource } from "../../ui/resource.ts";
import { TrackList } from "../../ui/track-list.tsx";
import { FollowedReleases } from "./followed-releases.tsx";

export function Home() {
  const home = useResource(async (signal) => {
    const client = api();
    const [tracks, artists, playlists] = await Promise.all([
      client.GET("/api/v1/tracks", { params: { query: { limit: 20 } }, signal }).then(unwrap),
      client.GET("/api/v1/artists", { params: { query: { limit: 12 } }, signal }).then(unwrap),
      client.GET("/api/v1/playlists", { params: { query: { limit: 12 } }, signal }).then(unwrap),
    ]);
    return { tracks, artists, playlists };
  }, []);
  return (
    <>
      <PageTitle title="Home">Listen now</PageTitle>
      {/* A listener's feed first: what the artists they follow released. */}
      {signedInAs.value === "user" && <FollowedReleases />}
      <ErrorMessage error={home.error} />
      {home.loading && !home.data && <Loading />}
      {home.data && (
        <>
          <section aria-labelledby="new-tracks">
            <h2 id="new-tracks">New tracks</h2>
            <TrackList tracks={home.data.tracks} label="New tracks" />
          </section>
          <section aria-labelledby="artists">
            <h2 id="artists">Artists</h2>
            <Cards
              label="Artists"
              empty="No artists yet."
              items={home.data.artists.map((a) =>
                artistCard(a, plural(a._count.followers, "follower")),
              )}
            />
          </section>
          <section aria-labelledby="playlists">
            <h2 id="playlists">Public playlists</h2>
            <Cards
              label="Public playlists"
              empty="No public playlists yet."
              items={home.data.playlists.map((p) =>
                playlistCard(p, plural(p._count.tracks, "track")),
              )}
            />
          </section>
        </>
      )}
    </>
  );
}
