// The typed client of the API, one per account kind (each refreshes its own session), on this
// page's origin: the Worker serves the player and the API together.
import { createClient, type EdgeMusicClient, ProblemError } from "@edge-music/client";

export type { components } from "@edge-music/client";
export { ProblemError, unwrap } from "@edge-music/client";

export type Kind = "user" | "artist";

const endedListeners = new Set<(kind: Kind) => void>();

/** Calls `listener` with the kind whose refresh was refused (its session has ended). */
export function onSessionEnded(listener: (kind: Kind) => void): () => void {
  endedListeners.add(listener);
  return () => endedListeners.delete(listener);
}

const clientOf = (kind: Kind) =>
  createClient({
    baseUrl: location.origin,
    kind,
    onSessionEnded: () => {
      for (const listener of endedListeners) listener(kind);
    },
  });

const clients: Record<Kind, EdgeMusicClient> = {
  user: clientOf("user"),
  artist: clientOf("artist"),
};

let active: Kind = "user";

/** The client of the signed-in kind (or a user's, signed out: public reads need no session). */
export function api(kind: Kind = active): EdgeMusicClient {
  return clients[kind];
}

export function setActiveKind(kind: Kind): void {
  active = kind;
}

/** A sentence for people from whatever went wrong (a problem document, or the network). */
export function messageOf(error: unknown): string {
  if (error instanceof ProblemError) {
    const fields = error.errors
      .map((e) => `${e.path.replace(/^(json|form|query|param|header)\./, "")}: ${e.message}`)
      .join("; ");
    return fields ? `${error.detail} (${fields})` : error.detail;
  }
  if (error instanceof DOMException && error.name === "AbortError") return "Cancelled.";
  if (error instanceof TypeError) return "The service cannot be reached. Check your connection.";
  return error instanceof Error ? error.message : String(error);
}

/** `/static/...` paths of covers and avatars, as URLs of this origin (null stays null). */
export const mediaUrl = (path: string | null | undefined): string | undefined =>
  path ? new URL(path, location.origin).toString() : undefined;
