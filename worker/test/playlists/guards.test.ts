import type { Registered } from "../support/auth.ts";
import { describeGuardMatrix, type ProtectedRoute } from "../support/guard-matrix.ts";
import { BASE, createPlaylist } from "./support.ts";

/** A playlist of `owner`, made through the API; private, so the owner-only rules are in play. */
const ownPlaylist = async (owner: Registered, suffix = "") =>
  `${BASE}/${(await createPlaylist(owner.client)).id}${suffix}`;

const routes: ProtectedRoute[] = [
  { method: "GET", path: `${BASE}/me`, kind: "user" },
  { method: "GET", path: `${BASE}/me/liked`, kind: "user" },
  { method: "POST", path: BASE, kind: "user", body: { title: "Guarded" } },
  { method: "PUT", path: (o) => ownPlaylist(o), kind: "user", body: { title: "x" }, owned: true },
  { method: "DELETE", path: (o) => ownPlaylist(o), kind: "user", owned: true },
  {
    method: "POST",
    path: (o) => ownPlaylist(o, "/tracks"),
    kind: "user",
    body: { trackIds: [crypto.randomUUID()] },
    owned: true,
  },
  {
    method: "PUT",
    path: (o) => ownPlaylist(o, "/tracks"),
    kind: "user",
    body: { trackIds: [crypto.randomUUID()] },
    owned: true,
  },
  {
    method: "DELETE",
    path: (o) => ownPlaylist(o, `/tracks/${crypto.randomUUID()}`),
    kind: "user",
    owned: true,
  },
  { method: "POST", path: (o) => ownPlaylist(o, "/like"), kind: "user" },
  { method: "DELETE", path: (o) => ownPlaylist(o, "/like"), kind: "user" },
];

describeGuardMatrix(routes);
