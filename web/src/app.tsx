// The shell: a skip link, the header (search as you type, navigation by who is signed in), the
// page of the URL, and the player bar. One file maps every path to its page.

import { useEffect, useRef, useState } from "preact/hooks";
import { ErrorBoundary, LocationProvider, lazy, Route, Router, useLocation } from "preact-iso";
import { Account } from "./pages/account/account.tsx";
import { CheckEmail } from "./pages/account/check-email.tsx";
import { AlbumPage } from "./pages/album.tsx";
import { ArtistPage } from "./pages/artist.tsx";
import { Home } from "./pages/home/home.tsx";
import { Following } from "./pages/library/following.tsx";
import { History } from "./pages/library/history.tsx";
import { Library } from "./pages/library/library.tsx";
import { Liked } from "./pages/library/liked.tsx";
import { NotFound } from "./pages/not-found.tsx";
import { PlaylistPage } from "./pages/playlist.tsx";
import { Search } from "./pages/search.tsx";
import { Shortcuts } from "./pages/shortcuts.tsx";
import { ForgotPassword } from "./pages/signed-out/forgot-password.tsx";
import { ResetPassword } from "./pages/signed-out/reset-password.tsx";
import { SignIn } from "./pages/signed-out/sign-in.tsx";
import { SignUp } from "./pages/signed-out/sign-up.tsx";
import { VerifyEmail } from "./pages/signed-out/verify-email.tsx";
import { TrackPage } from "./pages/track.tsx";
import { Trending } from "./pages/trending.tsx";
import { PlayerBar } from "./player/bar.tsx";
import { installShortcuts } from "./player/keys.ts";
import { account, displayName, loadSession, signedInAs, watchSession } from "./session.ts";

// The studio is an artist's alone: its pages are fetched when one is opened (one chunk, see
// vite.config.ts), so a listener never downloads them. The router keeps the page it shows until
// the chunk has come.
const Studio = lazy(() => import("./pages/studio/studio.tsx").then((m) => m.Studio));
const Upload = lazy(() => import("./pages/studio/upload.tsx").then((m) => m.Upload));
const StudioAlbums = lazy(() => import("./pages/studio/albums.tsx").then((m) => m.StudioAlbums));
const StudioProfile = lazy(() => import("./pages/studio/profile.tsx").then((m) => m.StudioProfile));
const StudioStats = lazy(() => import("./pages/studio/stats.tsx").then((m) => m.StudioStats));

export function App() {
  useEffect(() => {
    void loadSession();
    const stopWatching = watchSession();
    const removeShortcuts = installShortcuts();
    return () => {
      stopWatching();
      removeShortcuts();
    };
  }, []);
  return (
    // The router takes the clicks on links to its own pages; a link into the API (OAuth, a
    // download) is a real navigation.
    <LocationProvider scope={/^\/(?!api\/|static\/)/}>
      <a class="skip" href="#main">
        Skip to content
      </a>
      <Header />
      <main id="main" tabIndex={-1}>
        <CheckEmail />
        <ErrorBoundary>
          <Router>
            <Route path="/" component={Home} />
            <Route path="/search" component={Search} />
            <Route path="/trending" component={Trending} />
            <Route path="/artists/:id" component={ArtistPage} />
            <Route path="/albums/:id" component={AlbumPage} />
            <Route path="/tracks/:id" component={TrackPage} />
            <Route path="/playlists/:id" component={PlaylistPage} />
            <Route path="/sign-in" component={SignIn} />
            <Route path="/sign-up" component={SignUp} />
            <Route path="/forgot-password" component={ForgotPassword} />
            <Route path="/reset-password" component={ResetPassword} />
            <Route path="/verify-email" component={VerifyEmail} />
            <Route path="/account" component={Account} />
            <Route path="/library" component={Library} />
            <Route path="/following" component={Following} />
            <Route path="/liked" component={Liked} />
            <Route path="/history" component={History} />
            <Route path="/studio" component={Studio} />
            <Route path="/studio/upload" component={Upload} />
            <Route path="/studio/albums" component={StudioAlbums} />
            <Route path="/studio/profile" component={StudioProfile} />
            <Route path="/studio/stats" component={StudioStats} />
            <Route path="/shortcuts" component={Shortcuts} />
            <Route default component={NotFound} />
          </Router>
        </ErrorBoundary>
      </main>
      <PlayerBar />
      <OAuthReturn />
    </LocationProvider>
  );
}

const SEARCH_PAUSE_MS = 200;

function Header() {
  const location = useLocation();
  const onSearch = location.path === "/search";
  const [text, setText] = useState(onSearch ? (location.query.q ?? "") : "");
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  /** The page (its URL's path) that the pending search was typed on. */
  const typedOn = useRef("");
  const kind = signedInAs.value;
  // Leaving the results empties the box; coming back to them (history) shows their query. Never
  // while typing: the box is then ahead of the URL, which lags by the pause.
  useEffect(() => {
    if (!onSearch) setText("");
    else setText((typed) => typed || (location.query.q ?? ""));
  }, [onSearch]);
  // A link followed before the pause ends wins: the search typed just before it is not run. Only
  // one typed on an earlier page, though: this runs after the new page is painted, and what was
  // typed between the URL's change and then was typed on the new page.
  useEffect(
    () => () => {
      if (typedOn.current !== window.location.pathname) clearTimeout(timer.current);
    },
    [location.path],
  );
  const search = (value: string) => {
    setText(value);
    clearTimeout(timer.current);
    typedOn.current = window.location.pathname;
    timer.current = setTimeout(() => {
      const q = value.trim();
      location.route(
        q ? `/search?q=${encodeURIComponent(q)}` : "/search",
        location.path === "/search",
      );
    }, SEARCH_PAUSE_MS);
  };
  return (
    <header class="top">
      <a href="/" class="brand">
        Edge Music
      </a>
      <search class="top-search">
        <form
          onSubmit={(e) => {
            e.preventDefault();
            search(text);
          }}
        >
          <label for="search" class="visually-hidden">
            Search tracks, artists, albums and playlists
          </label>
          <input
            id="search"
            type="search"
            placeholder="Search"
            autoComplete="off"
            maxLength={200}
            value={text}
            onInput={(e) => search(e.currentTarget.value)}
          />
        </form>
      </search>
      <nav aria-label="Main">
        <ul>
          <li>
            <a href="/trending">Trending</a>
          </li>
          {kind === "user" && (
            <>
              <li>
                <a href="/library">Library</a>
              </li>
              <li>
                <a href="/following">Following</a>
              </li>
              <li>
                <a href="/liked">Liked</a>
              </li>
              <li>
                <a href="/history">History</a>
              </li>
            </>
          )}
          {kind === "artist" && (
            <>
              <li>
                <a href="/studio">Studio</a>
              </li>
              <li>
                <a href="/studio/upload">Upload</a>
              </li>
            </>
          )}
          {account.value ? (
            <li>
              <a href="/account" aria-label={`Account: ${displayName.value}`}>
                {displayName.value}
              </a>
            </li>
          ) : account.value === null ? (
            <>
              <li>
                <a href="/sign-in">Sign in</a>
              </li>
              <li>
                <a href="/sign-up" class="button primary">
                  Sign up
                </a>
              </li>
            </>
          ) : null}
        </ul>
      </nav>
    </header>
  );
}

/** Back from an OAuth provider: the API sent the browser to / with ?twoFactor= or ?error=. */
function OAuthReturn() {
  const location = useLocation();
  useEffect(() => {
    const { twoFactor, error } = location.query;
    if (location.path !== "/" || !(twoFactor || error)) return;
    const params = new URLSearchParams();
    if (twoFactor) params.set("twoFactor", twoFactor);
    if (error) params.set("error", error);
    location.route(`/sign-in?${params}`, true);
  }, [location.url]);
  return null;
}
