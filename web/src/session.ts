// Who is signed in: one account at a time (the API has one access cookie for both kinds). The
// kind is remembered in localStorage, so an anonymous visit asks nothing and a signed-in one
// asks its own kind's /auth/me once.
import { computed, signal } from "@preact/signals";
import { api, type components, type Kind, setActiveKind, unwrap } from "./api.ts";

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

/** Asks the remembered kind's /auth/me (refreshing the session once if it must). */
export async function loadSession(): Promise<Account | null> {
  const kind = rememberedKind();
  if (!kind) {
    account.value = null;
    return null;
  }
  setActiveKind(kind);
  try {
    const found: Account =
      kind === "user"
        ? { kind, user: unwrap(await api("user").GET("/api/v1/users/auth/me")) }
        : { kind, artist: unwrap(await api("artist").GET("/api/v1/artists/auth/me")) };
    account.value = found;
    return found;
  } catch {
    account.value = null;
    return null;
  }
}

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
  account.value = null;
}
