import type { PrincipalKind } from "../security/principal.ts";

/**
 * `User` / `Artist`: the account kind inside the operationId of a route built once per kind
 * (`registerUser`, `registerArtist`). Operation ids are camelCase, verb first, unique and stable:
 * client generators name their methods after them, so renaming one breaks its callers.
 */
export const operationKind = (kind: { name: PrincipalKind }) =>
  kind.name === "user" ? "User" : "Artist";
