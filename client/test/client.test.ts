// The client against the real Worker (wrangler, S3 storage): the cookie session with its shared
// refresh, problem documents as ProblemError values, and both uploads with their progress.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import {
  CookieJar,
  createClient,
  type EdgeMusicClient,
  ProblemError,
  type UploadProgress,
  unwrap,
} from "../src/index.ts";
import { wavFile } from "./support/audio.ts";

import { countingFetch } from "./support/counting-fetch.ts";
import { type ClientStack, startClientStack } from "./support/local-stack.ts";

const REFRESH = /^POST \/api\/v1\/artists\/auth\/refresh$/;
const MIB = 1024 * 1024;

let stack: ClientStack;

beforeAll(async () => {
  stack = await startClientStack();
});
afterAll(async () => {
  await stack?.stop();
});

/** A new artist signed in through a client of their own, with its cookies and its requests. */
async function newArtist() {
  const jar = new CookieJar();
  const counted = countingFetch(jar.fetch);
  const api = createClient({ baseUrl: stack.apiUrl, kind: "artist", fetch: counted.fetch });
  const id = crypto.randomUUID().slice(0, 8);
  const credentials = {
    username: `client_${id}`,
    email: `client-${id}@example.test`,
    password: `client-password-${crypto.randomUUID()}`,
  };
  const account = unwrap(await api.POST("/api/v1/artists/auth/register", { body: credentials }));
  return { api, jar, counted, account, credentials };
}

const expectProblem = async (call: Promise<unknown>) => {
  const error = await call.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ProblemError);
  return error as ProblemError;
};

describe("the cookie session", () => {
  test("registers, signs in on another client and reads the account, typed", async () => {
    const { account, credentials } = await newArtist();
    expect(account.username).toBe(credentials.username);

    const other = createClient({
      baseUrl: stack.apiUrl,
      kind: "artist",
      fetch: new CookieJar().fetch,
    });
    const signedIn = unwrap(
      await other.POST("/api/v1/artists/auth/login", {
        body: { email: credentials.email, password: credentials.password },
      }),
    );
    expect(signedIn.requiresTwoFactor).toBe(false);
    const me = unwrap(await other.GET("/api/v1/artists/auth/me"));
    expect(me).toMatchObject({ id: account.id, username: credentials.username });
  });

  test("answers a 401 with one refresh shared by concurrent calls, then retries each", async () => {
    const { api, jar, counted, account } = await newArtist();
    const refreshToken = jar.get("refresh_token");
    // As when the 5-minute access token has expired.
    jar.delete("access_token");

    const reads = Array.from({ length: 4 }, () => api.GET("/api/v1/artists/auth/me"));
    // A call with a body: its retry sends the body again.
    const write = api.POST("/api/v1/albums", { body: { title: "Made after a refresh" } });
    const answers = await Promise.all(reads);
    const album = unwrap(await write);

    for (const answer of answers) expect(unwrap(answer).id).toBe(account.id);
    expect(album.title).toBe("Made after a refresh");
    expect(counted.count(REFRESH)).toBe(1);
    // Five 401s, one refresh, five retries.
    expect(counted.count(/ \/api\/v1\/artists\/auth\/me$/)).toBe(8);
    expect(counted.count(/^POST \/api\/v1\/albums$/)).toBe(2);
    expect(jar.get("refresh_token")).not.toBe(refreshToken);
    expect(jar.get("access_token")).toBeTruthy();
  });

  test("leaves the 401 as a ProblemError when the refresh fails, after one refresh", async () => {
    const { api, jar, counted } = await newArtist();
    jar.delete("access_token");
    jar.set("refresh_token", "not-a-token");

    const errors = await Promise.all(
      Array.from({ length: 3 }, () =>
        expectProblem(api.GET("/api/v1/artists/auth/me").then((answer) => unwrap(answer))),
      ),
    );
    for (const error of errors) {
      expect(error).toMatchObject({ status: 401, code: "UNAUTHORIZED" });
      expect(error.requestId).toBeTruthy();
    }
    expect(counted.count(REFRESH)).toBe(1);
    // No retry without a session.
    expect(counted.count(/auth\/me$/)).toBe(3);
  });

  test("does not refresh on a failed sign-in", async () => {
    const { api, counted, credentials } = await newArtist();
    const error = await expectProblem(
      api
        .POST("/api/v1/artists/auth/login", {
          body: { email: credentials.email, password: "not the password at all" },
        })
        .then((answer) => unwrap(answer)),
    );
    expect(error.status).toBe(401);
    expect(counted.count(REFRESH)).toBe(0);
  });
});

describe("problem documents", () => {
  let api: EdgeMusicClient;
  beforeAll(async () => {
    ({ api } = await newArtist());
  });

  test("a 400 with its field errors", async () => {
    const error = await expectProblem(
      api.POST("/api/v1/albums", { body: { title: "" } }).then((answer) => unwrap(answer)),
    );
    expect(error).toMatchObject({ status: 400, code: "VALIDATION_FAILED" });
    expect(error.title).toBeTruthy();
    expect(error.detail).toBeTruthy();
    expect(error.requestId).toMatch(/\S/);
    expect(error.errors.map((e) => e.path)).toContain("json.title");
  });

  test("a 429 with its Retry-After as retryAfter", async () => {
    const { api, credentials } = await newArtist();
    const wrongSignIn = () =>
      api
        .POST("/api/v1/artists/auth/login", {
          body: { email: credentials.email, password: "not the password at all" },
        })
        .then((answer) => unwrap(answer));
    // Failed sign-ins against one account are limited to 10 per 15 minutes.
    let error = await expectProblem(wrongSignIn());
    for (let attempt = 1; attempt <= 12 && error.status === 401; attempt++) {
      error = await expectProblem(wrongSignIn());
    }
    expect(error).toMatchObject({ status: 429, code: "RATE_LIMITED" });
    expect(error.retryAfter).toBeGreaterThan(0);
  });

  test("a 404", async () => {
    const error = await expectProblem(
      api
        .GET("/api/v1/tracks/{id}", { params: { path: { id: crypto.randomUUID() } } })
        .then((answer) => unwrap(answer)),
    );
    expect(error).toMatchObject({ status: 404, code: "NOT_FOUND", errors: [] });
    expect(error.type).toMatch(/^urn:problem-type:/);
  });
});

/** Every progress value rises and the last one is the whole file. */
function expectRisingToTheEnd(progress: UploadProgress[], size: number) {
  expect(progress.length).toBeGreaterThan(2);
  for (const [i, p] of progress.entries()) {
    expect(p.total).toBe(size);
    if (i > 0)
      expect(p.loaded, `progress went back at ${i}`).toBeGreaterThan(progress[i - 1]?.loaded ?? 0);
  }
  expect(progress.at(-1)?.loaded).toBe(size);
}

describe("uploads", () => {
  test("the form upload reports rising progress up to the file's size", async () => {
    const { api } = await newArtist();
    const file = wavFile(3 * MIB);
    const progress: UploadProgress[] = [];
    const track = await api.uploadTrack({
      file,
      title: "Form upload",
      onProgress: (p) => progress.push(p),
    });
    expect(track).toMatchObject({ title: "Form upload", processingStatus: "PROCESSING" });
    expectRisingToTheEnd(progress, file.size);

    const read = unwrap(
      await api.GET("/api/v1/tracks/{id}", { params: { path: { id: track.id } } }),
    );
    expect(read.id).toBe(track.id);
  });

  test("the form upload refreshes an expired session and sends the file again", async () => {
    const { api, jar, counted } = await newArtist();
    jar.delete("access_token");
    // Under one chunk of the transport (256 KiB), so that the whole first request is written
    // before the Worker's 401 comes back. Written over several chunks, a part can meet the socket
    // the Worker closed after answering without reading the body: Node's HTTP client then fails
    // the fetch with EPIPE instead of handing over the 401 (nodejs/node#54366), now and then.
    const track = await api.uploadTrack({ file: wavFile(64 * 1024), title: "After a refresh" });
    expect(track.title).toBe("After a refresh");
    expect(counted.count(REFRESH)).toBe(1);
  });

  test("an unsupported file is a 415 ProblemError", async () => {
    const { api } = await newArtist();
    const file = new File(["not audio at all"], "notes.txt", { type: "text/plain" });
    const error = await expectProblem(api.uploadTrack({ file, title: "Not audio" }));
    expect(error).toMatchObject({ status: 415, code: "UNSUPPORTED_MEDIA_TYPE" });
  });

  test("the direct upload sends a file of two parts to storage, with progress", async () => {
    const { api, counted } = await newArtist();
    const file = wavFile(9 * MIB);
    const progress: UploadProgress[] = [];
    const track = await api.directUpload({
      file,
      title: "Direct upload",
      onProgress: (p) => progress.push(p),
    });
    expect(track).toMatchObject({ title: "Direct upload", processingStatus: "PROCESSING" });
    expect(counted.count(/^PUT /)).toBe(2);
    expect(counted.count(/^POST \/api\/v1\/uploads\/[^/]+\/complete$/)).toBe(1);
    expectRisingToTheEnd(progress, file.size);
  });

  test("the direct upload via the API sends its two parts to the API's own origin, with progress", async () => {
    const { api, counted } = await newArtist();
    const file = wavFile(9 * MIB);
    const progress: UploadProgress[] = [];
    const track = await api.directUpload({
      file,
      title: "Through the API",
      via: "api",
      onProgress: (p) => progress.push(p),
    });
    expect(track).toMatchObject({ title: "Through the API", processingStatus: "PROCESSING" });
    expect(counted.count(/^PUT /)).toBe(2);
    expect(counted.count(/^PUT \/api\/v1\/uploads\/[^/]+\/parts\/1$/)).toBe(1);
    expect(counted.count(/^PUT \/api\/v1\/uploads\/[^/]+\/parts\/2$/)).toBe(1);
    expect(counted.count(/^POST \/api\/v1\/uploads\/[^/]+\/complete$/)).toBe(1);
    expectRisingToTheEnd(progress, file.size);
  });

  test("a direct upload cancelled by its signal stops sending, aborts the upload and throws", async () => {
    const { api, counted } = await newArtist();
    const file = wavFile(9 * MIB);
    const cancel = new AbortController();
    const sending = api.directUpload({
      file,
      title: "Cancelled",
      parallel: 1,
      signal: cancel.signal,
      // Cancelled as soon as the first bytes of the first part are on their way.
      onProgress: (p) => p.loaded > 0 && cancel.abort(),
    });
    await expect(sending).rejects.toMatchObject({ name: "AbortError" });
    expect(counted.count(/^PUT /)).toBe(1);
    expect(counted.count(/\/complete$/)).toBe(0);
    expect(counted.count(/^DELETE \/api\/v1\/uploads\//)).toBe(1);
  });

  test("a refused direct upload is aborted and its problem thrown", async () => {
    const { api, counted } = await newArtist();
    // Declared as audio but not audio by its bytes: refused on completion.
    const file = new File([new Uint8Array(1024)], "silence.wav", { type: "audio/wav" });
    const error = await expectProblem(api.directUpload({ file, title: "Not audio" }));
    expect(error.status).toBe(415);
    expect(counted.count(/^DELETE \/api\/v1\/uploads\//)).toBe(1);
  });
});
