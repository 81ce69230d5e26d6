/** The two kinds of account: listeners (users) and uploaders (artists). */
export type PrincipalKind = "user" | "artist";

/** Who is calling: set by a route's guard (see `signedIn` in ./guard.ts). */
export interface Principal {
  kind: PrincipalKind;
  id: string;
  sessionId: string;
}
