// What a signed-out visitor presses to do what needs an account (like a track, follow an
// artist): a link to the sign-in page that brings them back to the page they were on. The way
// back is kept in this tab (sessionStorage) for a while, and only through the signed-out pages:
// a visitor who wanders off elsewhere is not taken back later.
import type { ComponentChildren } from "preact";
import { useEffect } from "preact/hooks";
import { useLocation } from "preact-iso";
import { account } from "../session.ts";

const KEY = "edge-music.after-sign-in";
/** A way back older than this is forgotten. */
const KEEP_MS = 30 * 60_000;
/** The pages between the press and the account: the way back is kept through them. */
const ON_THE_WAY = ["/sign-in", "/sign-up", "/forgot-password", "/reset-password", "/verify-email"];

export function SignInFirst({
  label,
  class: className,
  children,
}: {
  /** The accessible name, when the content is an icon. */
  label?: string;
  class?: string;
  children: ComponentChildren;
}) {
  return (
    <a
      href="/sign-in"
      class={className}
      aria-label={label}
      title="Sign in first"
      onClick={() => remember(location.pathname + location.search)}
    >
      {children}
    </a>
  );
}

function remember(path: string): void {
  try {
    sessionStorage.setItem(KEY, JSON.stringify({ path, at: Date.now() }));
  } catch {
    // No storage: the sign-in goes to its usual page.
  }
}

/** The kept way back (removed), if it is a recent path of this site. */
function takeWayBack(): string | null {
  try {
    const raw = sessionStorage.getItem(KEY);
    sessionStorage.removeItem(KEY);
    const { path, at } = JSON.parse(raw ?? "null") ?? {};
    const fresh = typeof at === "number" && Date.now() - at < KEEP_MS;
    return fresh && typeof path === "string" && /^\/(?![/\\])/.test(path) ? path : null;
  } catch {
    return null;
  }
}

/**
 * Once an account is signed in (the sign-in page has sent it to its home by then), back to the
 * page of the press. Used once, inside the router's LocationProvider.
 */
export function useWayBackAfterSignIn(): void {
  const location = useLocation();
  const signedIn = account.value != null;
  useEffect(() => {
    if (!signedIn) return;
    const back = takeWayBack();
    if (back && back !== location.url) location.route(back, true);
  }, [signedIn]);
  useEffect(() => {
    if (account.value === null && !ON_THE_WAY.includes(location.path)) takeWayBack();
  }, [location.path, account.value]);
}
