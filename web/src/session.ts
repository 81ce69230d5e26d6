// Who is signed in: one account at a time (the API has one access cookie for both kinds). The
// kind is remembered in localStorage, so an anonymous visit asks nothing and a signed-in one
// asks its own kind's /auth/me once.
import { computed, signal } from "@preact/signals";
import {
  api,
  type components,
  type Kind,
  onSessionEnded,
  ProblemError,
  setActiveKind,
  unwrap,
} from "./api.ts";

export type User = components["schemas"]["User"];
export type ArtistAccount = components["schemas"]["ArtistAccount"];
export type Account = { kind: "user"; user: User } | { kind: "artist"; artist: ArtistAccount };

const KIND_KEY = "edge-music.kind";
/** The kind of the last sign-in of this browser, kept after signing out (the sign-in page's default). */
const LAST_KIND_KEY = "edge-music.last-kind";

/** The kind this browser last signed in as, if any: the sign-in page offers it first. */
export function lastSignInKind(): Kind | null {
  const kind = localStorage.getItem(LAST_KIND_KEY);
  return kind === "user" || kind === "artist" ? kind : null;
}

/** undefined while the first check runs; null when signed out. */
export const account = signal<Account | null | undefined>(undefined);
export const signedInAs = computed(() => account.value?.kind ?? null);
/** Whether the signed-in account is the artist with this id (an item's owner). */
export const isSignedInArtist = (artistId: string) =>
  account.value?.kind === "artist" && account.value.artist.id === artistId;
export const displayName = computed(() => {
  const a = account.value;
  return a ? (a.kind === "user" ? a.user.username : a.artist.username) : "";
});

export function rememberedKind(): Kind | null {
  const kind = localStorage.getItem(KIND_KEY);
  return kind === "user" || kind === "artist" ? kind : null;
}

/** Before a sign-in that leaves the page (OAuth): which kind's /auth/me to ask on return. */
export function rememberKind(kind: Kind): void {
  localStorage.setItem(KIND_KEY, kind);
  setActiveKind(kind);
}

const me = async (kind: Kind): Promise<Account> =>
  kind === "user"
    ? { kind, user: unwrap(await api("user").GET("/api/v1/users/auth/me")) }
    : { kind, artist: unwrap(await api("artist").GET("/api/v1/artists/auth/me")) };

/** Asks the remembered kind's /auth/me (refreshing the session once if it must). */
export async function loadSession(): Promise<Account | null> {
  const kind = rememberedKind();
  if (!kind) {
    account.value = null;
    return null;
  }
  setActiveKind(kind);
  try {
    const found = await me(kind);
    account.value = found;
    return found;
  } catch {
    account.value = null;
    return null;
  }
}

/** At most one check of a returning page per this many milliseconds. */
const RECHECK_MS = 5_000;

/**
 * Keeps the page's account true to the server's: a session ended elsewhere (another device,
 * "sign out everywhere", another tab) signs the page out, the header included, as soon as the
 * page learns it. It learns it from any call whose refresh is refused (the client's
 * onSessionEnded), and by asking /auth/me again when the page comes back into view or focus, or
 * when another tab signs out. A network that fails changes nothing.
 */
export function watchSession(): () => void {
  const stopListening = onSessionEnded((kind) => {
    if ((account.value?.kind ?? rememberedKind()) === kind) signedOutHere();
  });
  let last = Date.now();
  const recheck = () => {
    const current = account.value;
    if (!current || document.visibilityState !== "visible") return;
    if (Date.now() - last < RECHECK_MS) return;
    last = Date.now();
    me(current.kind).then(
      (fresh) => {
        // The same account, possibly changed (a verified address): kept, unless another
        // sign-in replaced it meanwhile.
        if (account.value === current) account.value = fresh;
      },
      (error: unknown) => {
        if (error instanceof ProblemError && error.status === 401 && account.value === current) {
          signedOutHere();
        }
      },
    );
  };
  const otherTab = (event: StorageEvent) => {
    if (event.key === KIND_KEY && event.newValue === null) {
      last = 0;
      recheck();
    }
  };
  window.addEventListener("focus", recheck);
  document.addEventListener("visibilitychange", recheck);
  window.addEventListener("storage", otherTab);
  return () => {
    stopListening();
    window.removeEventListener("focus", recheck);
    document.removeEventListener("visibilitychange", recheck);
    window.removeEventListener("storage", otherTab);
  };
}

/**
 * The address a verification link was just mailed to, after a sign-up in this tab: the shell asks
 * the person to check it (and offers to send it again) while they go on using the app.
 */
export const verificationMailedTo = signal<{ kind: Kind; email: string } | null>(null);

/** After a successful sign-in or sign-up: the account the API answered with. */
export function signedIn(next: Account): void {
  rememberKind(next.kind);
  localStorage.setItem(LAST_KIND_KEY, next.kind);
  account.value = next;
}

/** Signs out this browser (the session ends on the server, the cookies are cleared). */
export async function signOut(): Promise<void> {
  const kind = account.value?.kind ?? rememberedKind() ?? "user";
  await api(kind)
    .POST(kind === "user" ? "/api/v1/users/auth/logout" : "/api/v1/artists/auth/logout")
    .catch(() => undefined);
  signedOutHere();
}

/** The session is gone (signed out here, or ended elsewhere): forget it locally. */
export function signedOutHere(): void {
  localStorage.removeItem(KIND_KEY);
  setActiveKind("user");
  verificationMailedTo.value = null;
  account.value = null;
}
