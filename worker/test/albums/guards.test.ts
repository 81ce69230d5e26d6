import type { Registered } from "../support/auth.ts";
import { describeGuardMatrix } from "../support/guard-matrix.ts";
import { createAlbum } from "../tracks/catalogue/support.ts";

const ownAlbum = async (owner: Registered) =>
  `/api/v1/albums/${(await createAlbum(owner.client)).id}`;

describeGuardMatrix([
  { method: "POST", path: "/api/v1/albums", kind: "artist", body: { title: "Debut" } },
  { method: "PUT", path: ownAlbum, kind: "artist", body: { title: "Renamed" }, owned: true },
  { method: "DELETE", path: ownAlbum, kind: "artist", owned: true },
]);
