import { trackKeys } from "@edge-music/contracts";
import { describe, expect, it } from "vitest";
import type { PrincipalKind } from "../src/security/account-kinds.ts";
import {
  app,
  authPath,
  Client,
  earlyInAStep,
  mailedTo,
  mailedToken,
  type Registered,
  registerAccount,
  strongPassword,
  totpCode,
  uniqueEmail,
  uniqueIp,
  uniqueName,
} from "./support/auth.ts";
import { send } from "./support/env.ts";
import { IMAGE_BYTES, insertAlbum, insertTrack } from "./support/factories.ts";
import { loadDocument, operationsOf } from "./support/openapi-routes.ts";
import { countingEnv, tripsSoFar } from "./support/round-trips.ts";
import {
  sendParts,
  start as startUpload,
  artist as uploader,
  wav,
} from "./tracks/direct-upload/support.ts";
import { bucket, filePart, mp3, multipart, textPart } from "./tracks/form-upload/support.ts";

/**
 * The database round trips of every operation of the OpenAPI document, counted by a bridge of
 * this suite's own (one HTTP query or batch is one; a new WebSocket three, then one per answered
 * message), against a budget per operation: exactly its budget, so that a regression fails and a
 * saving updates the table. The session check rides on the first round trip. An operation added
 * to the document without a budget fails the first test.
 */
const env = countingEnv;

/** One request to measure: prepared (uncounted), then sent through the counting bridge. */
interface Call {
  client?: Client;
  method: string;
  path: string;
  json?: unknown;
  raw?: { body: Uint8Array<ArrayBuffer>; contentType: string };
  headers?: Record<string, string>;
}

/** Sends one call through the counting bridge; answers its status and its round trips. */
async function measure(call: Call): Promise<{ status: number; trips: number }> {
  const client = call.client;
  const before = await tripsSoFar();
  const cookie = client?.jar.header(new URL(call.path, "http://localhost").pathname);
  const body = call.raw?.body ?? (call.json !== undefined ? JSON.stringify(call.json) : undefined);
  const contentType =
    call.raw?.contentType ?? (call.json !== undefined ? "application/json" : undefined);
  const response = await send(
    app,
    call.path,
    {
      method: call.method,
      redirect: "manual",
      headers: {
        "cf-connecting-ip": client?.ip ?? uniqueIp(),
        ...(cookie ? { cookie } : {}),
        ...(contentType ? { "content-type": contentType } : {}),
        ...call.headers,
      },
      ...(body !== undefined ? { body } : {}),
    },
    { ...env, ...client?.bindings },
  );
  client?.jar.take(response);
  await response.arrayBuffer();
  return { status: response.status, trips: (await tripsSoFar()) - before };
}

interface Budget {
  trips: number;
  /** Why more than one round trip (the issue's rule: one, two only where named and justified). */
  why?: string;
  prepare: () => Promise<Call>;
}

/** A page nobody else asks for, so that an anonymous read misses the edge cache. */
const freshPage = () => 1000 + Math.floor(Math.random() * 1_000_000);

async function playlistOf(owner: Registered, isPublic = true): Promise<string> {
  const created = await owner.client.post("/api/v1/playlists", {
    title: uniqueName("P"),
    isPublic,
  });
  return ((await created.json()) as { id: string }).id;
}

/** A READY track with its HLS and Opus files in storage. */
async function streamableTrack(): Promise<string> {
  const artist = await registerAccount("artist");
  const { id } = await insertTrack(artist.id);
  const keys = trackKeys(id);
  await bucket().put(keys.master, "#EXTM3U\n", {
    httpMetadata: { contentType: "application/vnd.apple.mpegurl" },
  });
  await bucket().put(keys.segment(128, 0), "segment", {
    httpMetadata: { contentType: "audio/mp4" },
  });
  await bucket().put(keys.opus(128), "OggS", { httpMetadata: { contentType: "audio/ogg" } });
  return id;
}

async function withTwoFactor(kind: PrincipalKind) {
  await earlyInAStep();
  const account = await registerAccount(kind);
  const setup = await account.client.post(`${authPath(kind)}/2fa/enable`, {
    password: account.password,
  });
  const { secret } = (await setup.json()) as { secret: string };
  return { account, secret };
}

async function withTwoFactorOn(kind: PrincipalKind) {
  const { account, secret } = await withTwoFactor(kind);
  const verified = await account.client.post(`${authPath(kind)}/2fa/verify`, {
    code: await totpCode(secret),
  });
  if (verified.status !== 200) throw new Error(`2fa/verify answered ${verified.status}`);
  return { account, secret };
}

/** The OAuth stand-in's consent for a new identity; answers the callback path to measure. */
async function oauthCallback(
  kind: PrincipalKind,
  client: Client,
  identity = { sub: crypto.randomUUID(), email: uniqueEmail() },
): Promise<string> {
  const start = await client.get(`${authPath(kind)}/oauth/google`);
  const authorize = new URL(start.headers.get("location") ?? "");
  authorize.searchParams.set("sub", identity.sub);
  authorize.searchParams.set("email", identity.email);
  const consent = await fetch(authorize, { redirect: "manual" });
  const callback = new URL(consent.headers.get("location") ?? "");
  return `${callback.pathname}${callback.search}`;
}

function authBudgets(kind: PrincipalKind): Record<string, Budget> {
  const base = authPath(kind);
  const at = (entry: string) => entry.replace(" ", ` ${base}/`);
  const signedIn = async () => (await registerAccount(kind)).client;
  return {
    [at("POST register")]: {
      trips: 2,
      why: "the hashing limit of the address first (a flood costs no hash), then (after the hash) the account, its session and its view in one batch",
      prepare: async () => ({
        method: "POST",
        path: `${base}/register`,
        json: { username: uniqueName(), email: uniqueEmail(), password: strongPassword() },
      }),
    },
    [at("POST login")]: {
      trips: 2,
      why: "the rate limits and the account, then (after the password hash) the session",
      prepare: async () => {
        const account = await registerAccount(kind);
        return {
          method: "POST",
          path: `${base}/login`,
          json: { email: account.email, password: account.password },
        };
      },
    },
    [at("POST refresh")]: {
      trips: 1,
      prepare: async () => ({ client: await signedIn(), method: "POST", path: `${base}/refresh` }),
    },
    [at("POST logout")]: {
      trips: 1,
      prepare: async () => ({ client: await signedIn(), method: "POST", path: `${base}/logout` }),
    },
    [at("GET me")]: {
      trips: 1,
      prepare: async () => ({ client: await signedIn(), method: "GET", path: `${base}/me` }),
    },
    [at("GET sessions")]: {
      trips: 1,
      prepare: async () => ({ client: await signedIn(), method: "GET", path: `${base}/sessions` }),
    },
    [at("DELETE sessions")]: {
      trips: 1,
      prepare: async () => ({
        client: await signedIn(),
        method: "DELETE",
        path: `${base}/sessions`,
      }),
    },
    [at("DELETE sessions/{id}")]: {
      trips: 1,
      prepare: async () => {
        const account = await registerAccount(kind);
        const other = new Client();
        await other.post(`${base}/login`, { email: account.email, password: account.password });
        const listed = await other.get(`${base}/sessions`);
        const sessions = (await listed.json()) as Array<{ id: string; current: boolean }>;
        // The other client's session, ended by the first.
        const target = sessions.find((session) => session.current)?.id ?? "";
        return { client: account.client, method: "DELETE", path: `${base}/sessions/${target}` };
      },
    },
    [at("POST 2fa/enable")]: {
      trips: 2,
      why: "re-authentication: the sign-in limits counted with the account read; then (after the password hash) the counters given back, the account and the secret in one batch",
      prepare: async () => {
        const account = await registerAccount(kind);
        return {
          client: account.client,
          method: "POST",
          path: `${base}/2fa/enable`,
          json: { password: account.password },
        };
      },
    },
    [at("POST 2fa/verify")]: {
      trips: 2,
      why: "the limits counted with the secret read (its state answers the 409s); then, after the code is checked, one batch that claims it (aborting everything if a concurrent request used it first), gives the counters back, turns 2FA on and writes the recovery codes",
      prepare: async () => {
        const { account, secret } = await withTwoFactor(kind);
        return {
          client: account.client,
          method: "POST",
          path: `${base}/2fa/verify`,
          json: { code: await totpCode(secret) },
        };
      },
    },
    [at("POST 2fa/disable")]: {
      trips: 2,
      why: "re-authentication: the sign-in and code limits counted with the account and its secret read (409 when off); then (after the password hash) one batch that claims the code, gives the counters back, turns 2FA off and ends the other sessions",
      prepare: async () => {
        const { account, secret } = await withTwoFactorOn(kind);
        return {
          client: account.client,
          method: "POST",
          path: `${base}/2fa/disable`,
          json: { code: await totpCode(secret, 1), password: account.password },
        };
      },
    },
    [at("POST 2fa/recovery-codes")]: {
      trips: 2,
      why: "re-authentication as for 2fa/disable; then one batch that claims the code, gives the counters back, replaces the codes and ends the other sessions",
      prepare: async () => {
        const { account, secret } = await withTwoFactorOn(kind);
        return {
          client: account.client,
          method: "POST",
          path: `${base}/2fa/recovery-codes`,
          json: { code: await totpCode(secret, 1), password: account.password },
        };
      },
    },
    [at("POST 2fa/complete")]: {
      trips: 2,
      why: "the limits counted with the secret read; then one batch that claims the code (a replay aborts it: no session), gives the counters back, opens the session and reads the account",
      prepare: async () => {
        // An account made by an OAuth sign-in turns 2FA on; its next OAuth sign-in is pending.
        await earlyInAStep();
        const identity = { sub: crypto.randomUUID(), email: uniqueEmail() };
        const owner = new Client();
        await owner.get(await oauthCallback(kind, owner, identity));
        const setup = await owner.post(`${base}/2fa/enable`, {});
        const { secret } = (await setup.json()) as { secret: string };
        await owner.post(`${base}/2fa/verify`, { code: await totpCode(secret) });
        const client = new Client();
        await client.get(await oauthCallback(kind, client, identity));
        return {
          client,
          method: "POST",
          path: `${base}/2fa/complete`,
          json: { code: await totpCode(secret, 1) },
        };
      },
    },
    [at("GET oauth/{provider}")]: {
      trips: 0,
      prepare: async () => ({ method: "GET", path: `${base}/oauth/google` }),
    },
    [at("GET oauth/{provider}/callback")]: {
      trips: 1,
      prepare: async () => {
        const client = new Client();
        return { client, method: "GET", path: await oauthCallback(kind, client) };
      },
    },
    [at("POST password/change")]: {
      trips: 2,
      why: "the login limits counted with the account's password hash read; then (after both hashes) the counters given back, the password set and the other sessions ended in one batch",
      prepare: async () => {
        const account = await registerAccount(kind);
        return {
          client: account.client,
          method: "POST",
          path: `${base}/password/change`,
          json: { currentPassword: account.password, newPassword: strongPassword() },
        };
      },
    },
    [at("POST email/verify")]: {
      trips: 1,
      prepare: async () => {
        const account = await registerAccount(kind);
        for (let i = 0; i < 50; i++) {
          const mails = await mailedTo(account.email);
          const token = /Verification token: (\S+)/.exec(mails.at(-1)?.text ?? "")?.[1];
          if (token) return { method: "POST", path: `${base}/email/verify`, json: { token } };
          await new Promise((r) => setTimeout(r, 50));
        }
        throw new Error("no verification mail");
      },
    },
    [at("POST email/change")]: {
      trips: 2,
      why: "re-authentication (the login and change limits counted, the account and its 2FA secret read); then (after the hash) the counters given back, the new address checked and the link stored in one batch",
      prepare: async () => {
        const account = await registerAccount(kind);
        return {
          client: account.client,
          method: "POST",
          path: `${base}/email/change`,
          json: { email: uniqueEmail(), password: account.password },
        };
      },
    },
    [at("POST email/verify/resend")]: {
      trips: 2,
      why: "the limit counted with the account read (409 once verified); then the new link stored",
      prepare: async () => ({
        client: await signedIn(),
        method: "POST",
        path: `${base}/email/verify/resend`,
      }),
    },
    [at("POST password/forgot")]: {
      trips: 2,
      why: "the rate limits first, so that a limited caller writes nothing; then the token, only for an existing account, in one statement",
      prepare: async () => ({
        method: "POST",
        path: `${base}/password/forgot`,
        json: { email: (await registerAccount(kind)).email },
      }),
    },
    [at("POST password/reset")]: {
      trips: 2,
      why: "the token looked up with the hashing limit (a made-up token costs no hash), then (after the hash) one statement claims it and changes the account",
      prepare: async () => {
        const account = await registerAccount(kind);
        await new Client().post(`${base}/password/forgot`, { email: account.email });
        return {
          method: "POST",
          path: `${base}/password/reset`,
          json: { token: await mailedToken(account.email), password: strongPassword() },
        };
      },
    },
  };
}

const user = async () => (await registerAccount("user")).client;
const artistId = async () => (await registerAccount("artist")).id;
const readyTrackId = async () => (await insertTrack(await artistId())).id;
const get = (path: string, client?: Client): Call => ({
  method: "GET",
  path,
  ...(client ? { client } : {}),
});

/** The user's own request to one of their playlists (`suffix` after its id). */
const onOwnPlaylist =
  (method: string, suffix = "", json?: unknown) =>
  async (): Promise<Call> => {
    const owner = await registerAccount("user");
    const path = `/api/v1/playlists/${await playlistOf(owner)}${suffix}`;
    return { client: owner.client, method, path, ...(json !== undefined ? { json } : {}) };
  };

/** The artist's own request to a track or album of theirs. */
const onOwn =
  (what: "tracks" | "albums", method: string, json?: unknown) => async (): Promise<Call> => {
    const artist = await registerAccount("artist");
    const { id } = what === "tracks" ? await insertTrack(artist.id) : await insertAlbum(artist.id);
    return {
      client: artist.client,
      method,
      path: `/api/v1/${what}/${id}`,
      ...(json !== undefined ? { json } : {}),
    };
  };

/** GET and POST /{tracks,albums,playlists}/{id}/share-link: one statement each, owner-scoped. */
function shareLinkBudgets(): Record<string, Budget> {
  const budgets: Record<string, Budget> = {};
  for (const what of ["tracks", "albums", "playlists"] as const) {
    for (const method of ["GET", "POST"]) {
      budgets[`${method} /api/v1/${what}/{id}/share-link`] = {
        trips: 1,
        prepare: async () => {
          if (what === "playlists") {
            const owner = await registerAccount("user");
            const path = `/api/v1/playlists/${await playlistOf(owner)}/share-link`;
            return { client: owner.client, method, path };
          }
          const call = await onOwn(what, method)();
          return { ...call, path: `${call.path}/share-link` };
        },
      };
    }
  }
  return budgets;
}

function artistRelation(what: "follow" | "like"): Record<string, Budget> {
  return {
    [`POST /api/v1/artists/{id}/${what}`]: {
      trips: 1,
      prepare: async () => ({
        client: await user(),
        method: "POST",
        path: `/api/v1/artists/${await artistId()}/${what}`,
      }),
    },
    [`DELETE /api/v1/artists/{id}/${what}`]: {
      trips: 1,
      prepare: async () => {
        const client = await user();
        const path = `/api/v1/artists/${await artistId()}/${what}`;
        await client.post(path);
        return { client, method: "DELETE", path };
      },
    },
  };
}

/** The app passwords of one account kind: each one statement, the session check riding on it. */
function appPasswordBudgets(kind: PrincipalKind): Record<string, Budget> {
  const base = `/api/v1/${kind}s/me/app-passwords`;
  const made = async () => {
    const account = await registerAccount(kind);
    const answer = await account.client.post(base, { name: "Phone" });
    return { client: account.client, id: ((await answer.json()) as { id: string }).id };
  };
  return {
    [`POST ${base}`]: {
      trips: 1,
      prepare: async () => ({
        client: (await registerAccount(kind)).client,
        method: "POST",
        path: base,
        json: { name: "Phone" },
      }),
    },
    [`GET ${base}`]: { trips: 1, prepare: async () => get(base, (await made()).client) },
    [`DELETE ${base}/{id}`]: {
      trips: 1,
      prepare: async () => {
        const { client, id } = await made();
        return { client, method: "DELETE", path: `${base}/${id}` };
      },
    },
  };
}

const BUDGETS: Record<string, Budget> = {
  "GET /api/v1/health/live": { trips: 0, prepare: async () => get("/api/v1/health/live") },
  "GET /api/v1/health/ready": { trips: 1, prepare: async () => get("/api/v1/health/ready") },
  "GET /api/v1/openapi.json": { trips: 0, prepare: async () => get("/api/v1/openapi.json") },
  "GET /api/v1/docs": { trips: 0, prepare: async () => get("/api/v1/docs") },
  ...authBudgets("user"),
  ...authBudgets("artist"),
  "GET /api/v1/users/me": { trips: 1, prepare: async () => get("/api/v1/users/me", await user()) },
  ...appPasswordBudgets("user"),
  ...appPasswordBudgets("artist"),
  "GET /api/v1/artists/me/export": {
    trips: 1,
    prepare: async () => get("/api/v1/artists/me/export", (await registerAccount("artist")).client),
  },
  "GET /api/v1/users/me/export": {
    trips: 1,
    prepare: async () => get("/api/v1/users/me/export", await user()),
  },
  "DELETE /api/v1/users/me": {
    trips: 2,
    why: "re-authentication: the sign-in limits counted with the account read; then (after the password hash) the counters given back, the covers to remove read and the account deleted in one batch",
    prepare: async () => {
      const account = await registerAccount("user");
      return {
        client: account.client,
        method: "DELETE",
        path: "/api/v1/users/me",
        json: { password: account.password },
      };
    },
  },
  "GET /api/v1/artists/me/following": {
    trips: 1,
    prepare: async () => get("/api/v1/artists/me/following", await user()),
  },
  "GET /api/v1/artists/me/liked": {
    trips: 1,
    prepare: async () => get("/api/v1/artists/me/liked", await user()),
  },
  ...artistRelation("follow"),
  ...artistRelation("like"),
  "GET /api/v1/artists": {
    trips: 1,
    prepare: async () => get(`/api/v1/artists?page=${freshPage()}`),
  },
  "GET /api/v1/artists/by-username/{username}": {
    trips: 1,
    prepare: async () =>
      get(`/api/v1/artists/by-username/${(await registerAccount("artist")).username}`),
  },
  "GET /api/v1/artists/me/tracks": {
    trips: 1,
    prepare: async () => get("/api/v1/artists/me/tracks", (await registerAccount("artist")).client),
  },
  "GET /api/v1/artists/me/stats": {
    trips: 1,
    prepare: async () => get("/api/v1/artists/me/stats", (await registerAccount("artist")).client),
  },
  "GET /api/v1/artists/{id}": {
    trips: 1,
    prepare: async () => get(`/api/v1/artists/${await artistId()}`),
  },
  "PUT /api/v1/artists/{id}": {
    trips: 1,
    prepare: async () => {
      const artist = await registerAccount("artist");
      return {
        client: artist.client,
        method: "PUT",
        path: `/api/v1/artists/${artist.id}`,
        json: { bio: "b" },
      };
    },
  },
  "DELETE /api/v1/artists/{id}": {
    trips: 2,
    why: "re-authentication: the sign-in limits counted with the account read; then (after the password hash) the counters given back, what the rows point at in storage read and the account deleted in one batch",
    prepare: async () => {
      const artist = await registerAccount("artist");
      await insertTrack(artist.id);
      return {
        client: artist.client,
        method: "DELETE",
        path: `/api/v1/artists/${artist.id}`,
        json: { password: artist.password },
      };
    },
  },
  "GET /api/v1/artists/{id}/tracks": {
    trips: 1,
    prepare: async () => get(`/api/v1/artists/${await artistId()}/tracks`),
  },
  "GET /api/v1/artists/{id}/albums": {
    trips: 1,
    prepare: async () => get(`/api/v1/artists/${await artistId()}/albums`),
  },
  "GET /api/v1/playlists": {
    trips: 1,
    prepare: async () => get(`/api/v1/playlists?page=${freshPage()}`),
  },
  "POST /api/v1/playlists": {
    trips: 1,
    prepare: async () => ({
      client: await user(),
      method: "POST",
      path: "/api/v1/playlists",
      json: { title: "T" },
    }),
  },
  "GET /api/v1/playlists/me": {
    trips: 1,
    prepare: async () => get("/api/v1/playlists/me", await user()),
  },
  "GET /api/v1/playlists/me/liked": {
    trips: 1,
    prepare: async () => get("/api/v1/playlists/me/liked", await user()),
  },
  "GET /api/v1/playlists/{id}": {
    trips: 1,
    prepare: async () =>
      get(`/api/v1/playlists/${await playlistOf(await registerAccount("user"))}`),
  },
  "PUT /api/v1/playlists/{id}": { trips: 1, prepare: onOwnPlaylist("PUT", "", { title: "New" }) },
  "DELETE /api/v1/playlists/{id}": { trips: 1, prepare: onOwnPlaylist("DELETE") },
  "POST /api/v1/playlists/{id}/tracks": {
    trips: 1,
    prepare: async () => {
      const call = await onOwnPlaylist("POST", "/tracks")();
      return { ...call, json: { trackIds: [await readyTrackId()] } };
    },
  },
  "PUT /api/v1/playlists/{id}/tracks": {
    trips: 1,
    prepare: async () => {
      const owner = await registerAccount("user");
      const trackIds = [await readyTrackId(), await readyTrackId()];
      const id = await playlistOf(owner);
      await owner.client.post(`/api/v1/playlists/${id}/tracks`, { trackIds });
      return {
        client: owner.client,
        method: "PUT",
        path: `/api/v1/playlists/${id}/tracks`,
        json: { trackIds: [...trackIds].reverse() },
      };
    },
  },
  "DELETE /api/v1/playlists/{id}/tracks/{trackId}": {
    trips: 1,
    prepare: async () => {
      const owner = await registerAccount("user");
      const trackId = await readyTrackId();
      const id = await playlistOf(owner);
      await owner.client.post(`/api/v1/playlists/${id}/tracks`, { trackIds: [trackId] });
      return {
        client: owner.client,
        method: "DELETE",
        path: `/api/v1/playlists/${id}/tracks/${trackId}`,
      };
    },
  },
  "POST /api/v1/playlists/{id}/like": {
    trips: 1,
    prepare: async () => ({
      client: await user(),
      method: "POST",
      path: `/api/v1/playlists/${await playlistOf(await registerAccount("user"))}/like`,
    }),
  },
  "DELETE /api/v1/playlists/{id}/like": {
    trips: 1,
    prepare: async () => {
      const client = await user();
      const path = `/api/v1/playlists/${await playlistOf(await registerAccount("user"))}/like`;
      await client.post(path);
      return { client, method: "DELETE", path };
    },
  },
  "POST /api/v1/history/tracks/{trackId}": {
    trips: 1,
    prepare: async () => ({
      client: await user(),
      method: "POST",
      path: `/api/v1/history/tracks/${await readyTrackId()}`,
    }),
  },
  "POST /api/v1/plays": {
    trips: 1,
    prepare: async () => ({
      method: "POST",
      path: "/api/v1/plays",
      json: { trackId: await readyTrackId() },
    }),
  },
  "DELETE /api/v1/history/tracks/{trackId}": {
    trips: 1,
    prepare: async () => {
      const client = await user();
      const path = `/api/v1/history/tracks/${await readyTrackId()}`;
      await client.post(path);
      return { client, method: "DELETE", path };
    },
  },
  "GET /api/v1/tracks/{id}/related": {
    trips: 1,
    prepare: async () => get(`/api/v1/tracks/${await readyTrackId()}/related`),
  },
  "GET /api/v1/tracks/trending": {
    trips: 1,
    prepare: async () => get("/api/v1/tracks/trending?window=week", await user()),
  },
  "GET /api/v1/tracks/me/liked": {
    trips: 1,
    prepare: async () => get("/api/v1/tracks/me/liked", await user()),
  },
  "GET /api/v1/tracks/me/liked/ids": {
    trips: 1,
    prepare: async () => get("/api/v1/tracks/me/liked/ids", await user()),
  },
  "POST /api/v1/tracks/{id}/like": {
    trips: 1,
    prepare: async () => ({
      client: await user(),
      method: "POST",
      path: `/api/v1/tracks/${await readyTrackId()}/like`,
    }),
  },
  "DELETE /api/v1/tracks/{id}/like": {
    trips: 1,
    prepare: async () => {
      const client = await user();
      const path = `/api/v1/tracks/${await readyTrackId()}/like`;
      await client.post(path);
      return { client, method: "DELETE", path };
    },
  },
  "GET /api/v1/users/me/feed": {
    trips: 1,
    prepare: async () => {
      const client = await user();
      const artist = await artistId();
      await client.post(`/api/v1/artists/${artist}/follow`);
      await insertTrack(artist);
      return get("/api/v1/users/me/feed?limit=5&since=2026-01-01T00:00:00Z", client);
    },
  },
  "PATCH /api/v1/users/me": {
    trips: 1,
    prepare: async () => ({
      client: await user(),
      method: "PATCH",
      path: "/api/v1/users/me",
      json: { displayName: "Night Owl" },
    }),
  },
  "GET /api/v1/users/me/play-queue": {
    trips: 1,
    prepare: async () => {
      const client = await user();
      const id = await readyTrackId();
      await client.put("/api/v1/users/me/play-queue", { trackIds: [id, id], current: id });
      return get("/api/v1/users/me/play-queue", client);
    },
  },
  "PUT /api/v1/users/me/play-queue": {
    trips: 1,
    prepare: async () => ({
      client: await user(),
      method: "PUT",
      path: "/api/v1/users/me/play-queue",
      json: { trackIds: [await readyTrackId()], position: 3 },
    }),
  },
  "GET /api/v1/history": { trips: 1, prepare: async () => get("/api/v1/history", await user()) },
  "DELETE /api/v1/history": {
    trips: 1,
    prepare: async () => ({ client: await user(), method: "DELETE", path: "/api/v1/history" }),
  },
  "POST /api/v1/albums": {
    trips: 1,
    prepare: async () => ({
      client: (await registerAccount("artist")).client,
      method: "POST",
      path: "/api/v1/albums",
      json: { title: "Debut" },
    }),
  },
  "GET /api/v1/albums": {
    trips: 1,
    prepare: async () => get(`/api/v1/albums?page=${freshPage()}`),
  },
  "GET /api/v1/albums/{id}": {
    trips: 1,
    prepare: async () => get(`/api/v1/albums/${(await insertAlbum(await artistId())).id}`),
  },
  "PUT /api/v1/albums/{id}": { trips: 1, prepare: onOwn("albums", "PUT", { title: "New" }) },
  "DELETE /api/v1/albums/{id}": { trips: 1, prepare: onOwn("albums", "DELETE") },
  "PUT /api/v1/albums/{id}/tracks/order": {
    trips: 1,
    prepare: async () => {
      const artist = await registerAccount("artist");
      const album = await insertAlbum(artist.id);
      const first = await insertTrack(artist.id, { albumId: album.id });
      const second = await insertTrack(artist.id, { albumId: album.id });
      return {
        client: artist.client,
        method: "PUT",
        path: `/api/v1/albums/${album.id}/tracks/order`,
        json: { trackIds: [second.id, first.id] },
      };
    },
  },
  "GET /api/v1/tracks/stream/{id}/hls/master.m3u8": {
    trips: 1,
    prepare: async () => get(`/api/v1/tracks/stream/${await streamableTrack()}/hls/master.m3u8`),
  },
  "GET /api/v1/tracks/stream/{id}/hls/{bitrate}/{file}": {
    trips: 1,
    prepare: async () =>
      get(`/api/v1/tracks/stream/${await streamableTrack()}/hls/128/segment_00000.m4s`),
  },
  "GET /api/v1/tracks/stream/{id}/audio/{file}": {
    trips: 1,
    prepare: async () => get(`/api/v1/tracks/stream/${await streamableTrack()}/audio/128.opus`),
  },
  "GET /api/v1/tracks/{id}/waveform": {
    trips: 1,
    prepare: async () => {
      const id = await streamableTrack();
      const waveform = { version: 1, points: 2, duration: 1, peak: 0.5, peaks: [1, 0.5] };
      await bucket().put(trackKeys(id).waveform, JSON.stringify(waveform), {
        httpMetadata: { contentType: "application/json" },
      });
      return get(`/api/v1/tracks/${id}/waveform`);
    },
  },
  "POST /api/v1/tracks": {
    trips: 2,
    why: "the session is confirmed before the body is stored; then the track row and its read-back in one batch",
    prepare: async () => {
      const artist = await registerAccount("artist");
      const { bytes, boundary } = multipart([
        textPart("title", "Song"),
        filePart("file", "a.mp3", mp3(), "audio/mpeg"),
      ]);
      return {
        client: artist.client,
        method: "POST",
        path: "/api/v1/tracks",
        raw: { body: bytes, contentType: `multipart/form-data; boundary=${boundary}` },
      };
    },
  },
  "GET /api/v1/tracks": {
    trips: 1,
    prepare: async () => get(`/api/v1/tracks?page=${freshPage()}`),
  },
  "GET /api/v1/tracks/{id}": {
    trips: 1,
    prepare: async () => get(`/api/v1/tracks/${await readyTrackId()}`),
  },
  "PUT /api/v1/tracks/{id}": { trips: 1, prepare: onOwn("tracks", "PUT", { title: "New" }) },
  ...shareLinkBudgets(),
  "DELETE /api/v1/tracks/{id}": { trips: 1, prepare: onOwn("tracks", "DELETE") },
  "POST /api/v1/uploads": {
    trips: 2,
    why: "the session checked and the artist's upload limits read and the place taken in one batch, before storage starts anything (ADR 0016: quotas); then storage's id of the multipart upload recorded, which exists only once storage has started it",
    prepare: async () => {
      const account = await uploader();
      return {
        client: account.client,
        method: "POST",
        path: "/api/v1/uploads",
        json: { title: "t", filename: "a.wav", contentType: "audio/wav", size: 4096 },
      };
    },
  },
  "PUT /api/v1/uploads/{uploadId}/parts/{partNumber}": {
    trips: 1,
    prepare: async () => {
      const account = await uploader();
      const file = wav(4096);
      const started = await startUpload(account, file);
      return {
        client: account.client,
        method: "PUT",
        path: `/api/v1/uploads/${started.uploadId}/parts/1`,
        raw: { body: file, contentType: "application/octet-stream" },
        headers: { "content-length": String(file.length) },
      };
    },
  },
  "POST /api/v1/uploads/{uploadId}/complete": {
    trips: 2,
    why: "the upload read (its owner, its key) before storage joins the parts and the file is checked; then the track made, the upload removed and the track read back in one batch",
    prepare: async () => {
      const account = await uploader();
      const file = wav(4096);
      const started = await startUpload(account, file);
      const parts = await sendParts(started, file);
      return {
        client: account.client,
        method: "POST",
        path: `/api/v1/uploads/${started.uploadId}/complete`,
        json: { parts },
      };
    },
  },
  "DELETE /api/v1/uploads/{uploadId}": {
    trips: 2,
    why: "the upload read (its owner, its key) before storage aborts it; the row goes only once storage has, so a failed abort can be tried again",
    prepare: async () => {
      const account = await uploader();
      const started = await startUpload(account, wav(4096));
      return {
        client: account.client,
        method: "DELETE",
        path: `/api/v1/uploads/${started.uploadId}`,
      };
    },
  },
  "POST /api/v1/tracks/{id}/retry": {
    trips: 1,
    prepare: async () => {
      const artist = await registerAccount("artist");
      const track = await insertTrack(artist.id, {
        processingStatus: "FAILED",
        sourceKey: "tracks/x/source/a.wav",
        sourceFileName: "a.wav",
      });
      return { client: artist.client, method: "POST", path: `/api/v1/tracks/${track.id}/retry` };
    },
  },
  "GET /api/v1/tracks/{id}/events": {
    trips: 1,
    // Finished, so that the stream ends; one converting waits on Redis, with the same one trip.
    prepare: async () => {
      const artist = await registerAccount("artist");
      const track = await insertTrack(artist.id, { processingStatus: "READY" });
      return { client: artist.client, method: "GET", path: `/api/v1/tracks/${track.id}/events` };
    },
  },
  "GET /api/v1/search": {
    trips: 1,
    prepare: async () => get(`/api/v1/search?q=budget${freshPage()}`),
  },
  "GET /api/v1/oembed": {
    trips: 1,
    prepare: async () =>
      get(
        `/api/v1/oembed?url=${encodeURIComponent(`http://localhost:5173/tracks/${await readyTrackId()}`)}`,
      ),
  },
  "GET /static/{folder}/{file}": {
    trips: 0,
    prepare: async () => {
      const owner = await registerAccount("user");
      const id = await playlistOf(owner);
      const form = new FormData();
      form.set("cover", new File([IMAGE_BYTES.png], "c.png", { type: "image/png" }));
      const updated = await owner.client.form("PUT", `/api/v1/playlists/${id}`, form);
      const { cover } = (await updated.json()) as { cover: string };
      return get(cover);
    },
  },
};

const operations = operationsOf(await loadDocument());

describe("database round trips of every operation", () => {
  it("has a budget for every operation of the document, and only for those", () => {
    const ids = operations.map((op) => op.id);
    expect(ids.filter((id) => !(id in BUDGETS))).toEqual([]);
    expect(Object.keys(BUDGETS).filter((id) => !ids.includes(id))).toEqual([]);
    // More than one round trip is named and justified.
    expect(Object.entries(BUDGETS).filter(([, b]) => b.trips > 1 && !b.why)).toEqual([]);
  });

  it.each(Object.entries(BUDGETS))("%s", async (_id, budget) => {
    const { status, trips } = await measure(await budget.prepare());
    expect(status).toBeLessThan(400);
    expect(trips).toBe(budget.trips);
  });
});

describe("database round trips of the common case of a costly operation", () => {
  it("an unlisted track read with its key, then streamed with its signature: one each (ADR 0025, 0026)", async () => {
    const artist = await registerAccount("artist");
    const { id, shareKey } = await insertTrack(artist.id, { visibility: "unlisted" });
    const path = `/api/v1/tracks/${id}?key=${shareKey}`;
    expect(await measure(get(path))).toEqual({ status: 200, trips: 1 });
    const { stream } = (await (await new Client().get(path)).json()) as {
      stream: { query: string };
    };
    // No media stored for this track: the file is a 404, after the same one statement.
    const segment = `/api/v1/tracks/stream/${id}/hls/128/segment_00000.m4s?${stream.query}`;
    expect(await measure(get(segment))).toEqual({ status: 404, trips: 1 });
  });

  it("a returning OAuth sign-in: the same one batch (the link found, the session opened)", async () => {
    const identity = { sub: crypto.randomUUID(), email: uniqueEmail() };
    const first = new Client();
    await first.get(await oauthCallback("user", first, identity));
    const again = new Client();
    const path = await oauthCallback("user", again, identity);
    expect(await measure({ client: again, method: "GET", path })).toEqual({
      status: 302,
      trips: 1,
    });
  });

  it("an update with a new image: the owner checked before the image is stored, then one batch points the row at it", async () => {
    const owner = await registerAccount("user");
    const id = await playlistOf(owner);
    const { bytes, boundary } = multipart([
      textPart("name", "With a cover"),
      filePart("cover", "c.png", IMAGE_BYTES.png, "image/png"),
    ]);
    const call = {
      client: owner.client,
      method: "PUT",
      path: `/api/v1/playlists/${id}`,
      raw: { body: bytes, contentType: `multipart/form-data; boundary=${boundary}` },
    };
    expect(await measure(call)).toEqual({ status: 200, trips: 2 });
    // An artist's own profile needs no owner check (the token names the artist): one batch.
    const artist = await registerAccount("artist");
    const avatar = multipart([filePart("avatar", "a.png", IMAGE_BYTES.png, "image/png")]);
    const profile = {
      client: artist.client,
      method: "PUT",
      path: `/api/v1/artists/${artist.id}`,
      raw: { body: avatar.bytes, contentType: `multipart/form-data; boundary=${avatar.boundary}` },
    };
    expect(await measure(profile)).toEqual({ status: 200, trips: 1 });
  });

  it("a sign-in with a 2FA code: both attempts counted with the account and its secret; then the counters given back, the code used up and the session opened", async () => {
    const { account, secret } = await withTwoFactorOn("user");
    const request = {
      method: "POST",
      path: `${authPath("user")}/login`,
      json: { email: account.email, password: account.password, code: await totpCode(secret, 1) },
    } as const;
    expect(await measure(request)).toEqual({ status: 200, trips: 2 });
  });
});
