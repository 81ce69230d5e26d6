import type { Registered } from "../../support/auth.ts";
import { insertTrack } from "../../support/factories.ts";
import { describeGuardMatrix } from "../../support/guard-matrix.ts";

const ownTrack = async (owner: Registered) => `/api/v1/tracks/${(await insertTrack(owner.id)).id}`;

describeGuardMatrix([
  { method: "PUT", path: ownTrack, kind: "artist", body: { title: "Renamed" }, owned: true },
  { method: "DELETE", path: ownTrack, kind: "artist", owned: true },
]);
