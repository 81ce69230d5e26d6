import { describe, expect, it } from "vitest";
import type { PrincipalKind } from "../../src/security/account-kinds.ts";
import { createPlaylist } from "../playlists/support.ts";
import {
  authPath,
  type Client,
  earlyInAStep,
  KINDS,
  type Registered,
  registerAccount,
  totpCode,
} from "../support/auth.ts";
import { IMAGE_BYTES, insertArtist, insertTrack } from "../support/factories.ts";
import { expectProblem } from "../support/problem.ts";
import { createAlbum } from "../tracks/catalogue/support.ts";
import { concat, objectsHolding } from "../tracks/form-upload/support.ts";

/**
 * Every resource an account owns, and every way another account of the same kind could reach it
 * by id. What the OpenAPI descriptions promise: writes by a stranger are 403 ("another user gets
 * 403, also for a private playlist"; "Another artist's track: 403"), private reads are 404 as
 * for what does not exist, and what is scoped to the caller (history, 2FA, /me) answers about
 * the stranger's own account. Each attempt must also leave the owner's view unchanged and carry
 * none of the owner's private values in its body.
 *
 * The status of each 403 alone is in the guard matrices (test/{playlists,tracks,albums}/guards,
 * test/artists/profile); private reads alone in test/playlists/read and test/tracks/read;
 * history scoping in test/history/history. This table adds the unchanged state, the bodies,
 * multipart writes, lists and search, and puts every owned resource in one place.
 */
interface Made {
  id: string;
  /** Values only the owner may see: none may appear in a stranger's answer. */
  secrets: string[];
  /** A track the attempts may name (one the resource holds). */
  trackId?: string;
}

interface Attempt {
  name: string;
  /** `self` is the stranger's own account (its password, for its own re-authentication). */
  send(stranger: Client, made: Made, owner: Registered, self: Registered): Promise<Response>;
  status: number;
  /** For 4xx answers: the problem code. */
  code?: string;
}

interface OwnedResource {
  name: string;
  kind: PrincipalKind;
  make(owner: Registered): Promise<Made>;
  /** What the owner sees of it: must be the same after every attempt. */
  ownerView(owner: Registered, made: Made): Promise<unknown>;
  attempts: Attempt[];
}

const secret = (label: string) => `${label}-${crypto.randomUUID()}`;
/** A real image with a unique tail, so a stored copy can be found in the bucket. */
const uniquePng = () =>
  concat([IMAGE_BYTES.png, new TextEncoder().encode(`idor-${crypto.randomUUID()}`)]);
const imageForm = (field: string, bytes: Uint8Array) => {
  const form = new FormData();
  form.set(field, new File([bytes as Uint8Array<ArrayBuffer>], "x.png", { type: "image/png" }));
  return form;
};
const bodyOf = async (response: Response) => (await response.json()) as unknown;
const ownerGet = async (owner: Registered, path: string) => {
  const response = await owner.client.get(path);
  expect(response.status).toBe(200);
  return await bodyOf(response);
};

/** A write attempt: 403 FORBIDDEN by the spec's error table and the OpenAPI descriptions. */
const forbidden = (name: string, send: Attempt["send"]): Attempt => ({
  name,
  send,
  status: 403,
  code: "FORBIDDEN",
});
/** A multipart image write: 403, and the image must not reach storage either. */
const forbiddenImage = (name: string, path: (made: Made) => string, field: string): Attempt =>
  forbidden(name, async (stranger, made) => {
    const bytes = uniquePng();
    const response = await stranger.form("PUT", path(made), imageForm(field, bytes));
    expect(await objectsHolding("static/", bytes)).toEqual([]);
    return response;
  });
const hidden = (name: string, send: Attempt["send"]): Attempt => ({
  name,
  send,
  status: 404,
  code: "NOT_FOUND",
});
/** A read that answers the stranger's own view (a list, a search): 200, without the owner's. */
const ownView = (name: string, send: Attempt["send"]): Attempt => ({ name, send, status: 200 });

const PLAYLISTS = "/api/v1/playlists";
const playlistOf = (made: Made) => `${PLAYLISTS}/${made.id}`;

const resources: OwnedResource[] = [
  {
    name: "a private playlist",
    kind: "user",
    async make(owner) {
      const title = secret("title");
      const description = secret("description");
      const playlist = await createPlaylist(owner.client, { title, description, isPublic: false });
      const track = await insertTrack((await insertArtist()).id);
      const added = await owner.client.post(`${PLAYLISTS}/${playlist.id}/tracks`, {
        trackIds: [track.id],
      });
      expect(added.status).toBe(200);
      return { id: playlist.id, trackId: track.id, secrets: [title, description, owner.email] };
    },
    ownerView: (owner, made) => ownerGet(owner, playlistOf(made)),
    attempts: [
      hidden("read it", (s, m) => s.get(playlistOf(m))),
      ownView("list own playlists", (s) => s.get(`${PLAYLISTS}/me`)),
      ownView("list public playlists", (s) => s.get(`${PLAYLISTS}?limit=100`)),
      forbidden("rename it", (s, m) => s.put(playlistOf(m), { title: "Hijacked", isPublic: true })),
      forbiddenImage("set its cover", playlistOf, "cover"),
      forbidden("add a track", async (s, m) => {
        const track = await insertTrack((await insertArtist()).id);
        return await s.post(`${playlistOf(m)}/tracks`, { trackIds: [track.id] });
      }),
      forbidden("remove its track", (s, m) => s.delete(`${playlistOf(m)}/tracks/${m.trackId}`)),
      forbidden("delete it", (s, m) => s.delete(playlistOf(m))),
    ],
  },
  {
    name: "a track still converting",
    kind: "artist",
    async make(owner) {
      const title = secret("unreleased");
      const track = await insertTrack(owner.id, { title, processingStatus: "PROCESSING" });
      return { id: track.id, secrets: [title, owner.email] };
    },
    ownerView: (owner, made) => ownerGet(owner, `/api/v1/tracks/${made.id}`),
    attempts: [
      hidden("read it", (s, m) => s.get(`/api/v1/tracks/${m.id}`)),
      ownView("list the owner's tracks", (s, _m, o) => s.get(`/api/v1/tracks?artistId=${o.id}`)),
      ownView("list the artist's tracks", (s, _m, o) => s.get(`/api/v1/artists/${o.id}/tracks`)),
      forbidden("rename it", (s, m) => s.put(`/api/v1/tracks/${m.id}`, { title: "Hijacked" })),
      forbiddenImage("set its cover", (m) => `/api/v1/tracks/${m.id}`, "cover"),
      forbidden("delete it", (s, m) => s.delete(`/api/v1/tracks/${m.id}`)),
    ],
  },
  {
    name: "an album",
    kind: "artist",
    async make(owner) {
      const album = await createAlbum(owner.client);
      return { id: album.id, secrets: [owner.email] };
    },
    ownerView: (owner, made) => ownerGet(owner, `/api/v1/albums/${made.id}`),
    attempts: [
      forbidden("rename it", (s, m) => s.put(`/api/v1/albums/${m.id}`, { title: "Hijacked" })),
      forbiddenImage("set its cover", (m) => `/api/v1/albums/${m.id}`, "cover"),
      forbidden("delete it", (s, m) => s.delete(`/api/v1/albums/${m.id}`)),
    ],
  },
  {
    name: "an artist profile",
    kind: "artist",
    async make(owner) {
      return { id: owner.id, secrets: [owner.email] };
    },
    ownerView: (owner, made) => ownerGet(owner, `/api/v1/artists/${made.id}`),
    attempts: [
      forbidden("change the bio", (s, m) => s.put(`/api/v1/artists/${m.id}`, { bio: "pwned" })),
      forbidden("take the username", (s, m) =>
        s.put(`/api/v1/artists/${m.id}`, { username: secret("u").slice(0, 20) }),
      ),
      forbiddenImage("set the avatar", (m) => `/api/v1/artists/${m.id}`, "avatar"),
      forbiddenImage("set the background", (m) => `/api/v1/artists/${m.id}`, "backgroundImage"),
      forbidden("delete the account", (s, m) => s.delete(`/api/v1/artists/${m.id}`)),
    ],
  },
  {
    name: "a listening history",
    kind: "user",
    async make(owner) {
      const track = await insertTrack((await insertArtist()).id);
      const listen = await owner.client.post(`/api/v1/history/tracks/${track.id}`);
      expect(listen.status).toBe(201);
      const { id } = (await listen.json()) as { id: string };
      return { id, trackId: track.id, secrets: [id, owner.email] };
    },
    ownerView: (owner) => ownerGet(owner, "/api/v1/history"),
    attempts: [
      ownView("read the history", (s) => s.get("/api/v1/history")),
      {
        name: "remove the owner's listens of the track",
        send: async (s, m) => {
          const response = await s.delete(`/api/v1/history/tracks/${m.trackId}`);
          expect(await response.clone().json()).toMatchObject({ deleted: 0 });
          return response;
        },
        status: 200,
      },
      { name: "clear the history", send: (s) => s.delete("/api/v1/history"), status: 204 },
    ],
  },
  {
    name: "a user account",
    kind: "user",
    async make(owner) {
      return { id: owner.id, secrets: [owner.email, owner.username] };
    },
    ownerView: (owner) => ownerGet(owner, "/api/v1/users/me"),
    attempts: [
      // There is no route to another user's profile: by id it is simply no route.
      hidden("read it by id", (s, m) => s.get(`/api/v1/users/${m.id}`)),
      ownView("read /users/me", (s) => s.get("/api/v1/users/me")),
    ],
  },
  ...KINDS.map(
    (kind): OwnedResource => ({
      name: `the 2FA settings of ${kind === "user" ? "a user" : "an artist"}`,
      kind,
      async make(owner) {
        await earlyInAStep();
        const enabled = await owner.client.post(`${authPath(kind)}/2fa/enable`, {
          password: owner.password,
        });
        const { secret: totpSecret } = (await enabled.json()) as { secret: string };
        const code = await totpCode(totpSecret);
        expect((await owner.client.post(`${authPath(kind)}/2fa/verify`, { code })).status).toBe(
          200,
        );
        return { id: owner.id, secrets: [totpSecret, owner.email, await totpCode(totpSecret)] };
      },
      ownerView: (owner) => ownerGet(owner, `${authPath(kind)}/me`),
      attempts: [
        {
          // The owner's current code, on the stranger's session: it is the stranger's 2FA (off).
          name: "disable it with the owner's code",
          send: (s, m, _o, self) =>
            s.post(`${authPath(kind)}/2fa/disable`, {
              code: m.secrets[2],
              password: self.password,
            }),
          status: 409,
          code: "CONFLICT",
        },
        ownView("start the stranger's own set-up", (s, _m, _o, self) =>
          s.post(`${authPath(kind)}/2fa/enable`, { password: self.password }),
        ),
      ],
    }),
  ),
];

describe.each(resources.map((r) => [r.name, r] as const))("IDOR: %s", (_name, resource) => {
  it.each(resource.attempts.map((a) => [a.name, a] as const))(
    "a stranger tries to %s: refused or scoped, unchanged, no private data",
    async (_attempt, attempt) => {
      const owner = await registerAccount(resource.kind);
      const stranger = await registerAccount(resource.kind);
      const made = await resource.make(owner);
      const before = await resource.ownerView(owner, made);

      const response = await attempt.send(stranger.client, made, owner, stranger);
      const text = await response.clone().text();
      if (attempt.code) await expectProblem(response, attempt.status, attempt.code);
      else expect(response.status, text).toBe(attempt.status);
      for (const value of made.secrets) expect(text).not.toContain(value);

      expect(await resource.ownerView(owner, made)).toEqual(before);
    },
  );
});
