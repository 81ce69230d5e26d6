import { artistAuth, artists, userAuth, users } from "@edge-music/db";

export type PrincipalKind = "user" | "artist";
export const PRINCIPAL_KINDS = ["user", "artist"] as const satisfies readonly PrincipalKind[];

/**
 * Everything that differs between the two account kinds. The auth code is written once against
 * the user tables' types: the artist tables have the same auth columns (artists add profile
 * columns with defaults), so the artist ones are viewed through the same type.
 */
export interface KindTables {
  kind: PrincipalKind;
  principals: typeof users;
  auth: typeof userAuth;
  /** Where this kind's auth routes live; the refresh cookie is scoped to it. */
  authPath: string;
}

export const KIND_TABLES: Record<PrincipalKind, KindTables> = {
  user: { kind: "user", principals: users, auth: userAuth, authPath: "/api/v1/users/auth" },
  artist: {
    kind: "artist",
    principals: artists as unknown as typeof users,
    auth: artistAuth as unknown as typeof userAuth,
    authPath: "/api/v1/artists/auth",
  },
};
