import { randomUUID } from "node:crypto";
import { PNG } from "pngjs";
import { describe, expect, inject, it } from "vitest";

const base = inject("infra").standIns.url;

async function post(path: string, body: unknown, headers: Record<string, string> = {}) {
  return await fetch(`${base}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });
}

describe("the mail API stand-in (Resend's shape)", () => {
  const auth = { authorization: "Bearer re_test_key" };

  it("stores sent mail and lists it per recipient, newest last", async () => {
    const to = `reset-${randomUUID()}@example.com`;
    const first = await post(
      "/mail/emails",
      { from: "Edge Music <no-reply@example.com>", to, subject: "Reset", text: "link 1" },
      auth,
    );
    expect(first.status).toBe(200);
    const { id } = (await first.json()) as { id: string };
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    await post(
      "/mail/emails",
      { from: "no-reply@example.com", to: [`Someone <${to}>`], subject: "Again", html: "<b>2</b>" },
      auth,
    );

    const listed = await fetch(`${base}/mail/messages?to=${encodeURIComponent(to)}`);
    const messages = (await listed.json()) as Array<Record<string, unknown>>;
    expect(messages).toHaveLength(2);
    expect(messages[0]).toMatchObject({
      id,
      from: "Edge Music <no-reply@example.com>",
      to: [to],
      subject: "Reset",
      text: "link 1",
      html: null,
      receivedAt: expect.any(String),
    });
    expect(messages[1]).toMatchObject({ subject: "Again", html: "<b>2</b>" });
  });

  it("refuses a request without an API key (401)", async () => {
    const response = await post("/mail/emails", {
      from: "a@example.com",
      to: "b@example.com",
      subject: "s",
      text: "t",
    });
    expect(response.status).toBe(401);
  });

  it.each([
    ["no subject", { from: "a@example.com", to: "b@example.com", text: "t" }],
    [
      "a recipient that is no address",
      { from: "a@example.com", to: ["nobody"], subject: "s", text: "t" },
    ],
    ["no content", { from: "a@example.com", to: "b@example.com", subject: "s" }],
  ])("refuses %s with a validation_error (422)", async (_case, body) => {
    const response = await post("/mail/emails", body, auth);
    expect(response.status).toBe(422);
    expect(await response.json()).toMatchObject({ name: "validation_error" });
  });
});

describe("the oracle", () => {
  it("hashes with argon2id (m=19456, t=2, p=1) and verifies", async () => {
    const password = `pw-${randomUUID()}`;
    const hashed = await post("/oracle/argon2/hash", { password });
    const { hash } = (await hashed.json()) as { hash: string };
    expect(hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    const right = await post("/oracle/argon2/verify", { hash, password });
    expect(await right.json()).toEqual({ ok: true });
    const wrong = await post("/oracle/argon2/verify", { hash, password: "not-it" });
    expect(await wrong.json()).toEqual({ ok: false });
  });

  it("answers bad input with 400 and keeps serving", async () => {
    const notPhc = await post("/oracle/argon2/verify", { hash: "plain", password: "x" });
    expect(notPhc.status).toBe(400);
    const noPassword = await post("/oracle/argon2/hash", {});
    expect(noPassword.status).toBe(400);
    const notPng = await fetch(`${base}/oracle/qr/decode`, {
      method: "POST",
      headers: { "content-type": "image/png" },
      body: "not a png",
    });
    expect(notPng.status).toBe(400);
    expect(await notPng.json()).toHaveProperty("error");
  });

  it("decodes a QR code from a PNG", async () => {
    const response = await decodeQr(pngOf(QR_STAND_INS));
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ text: "stand-ins" });
  });

  it("answers 422 for a PNG without a QR code", async () => {
    const response = await decodeQr(pngOf(Array(21).fill(".".repeat(21))));
    expect(response.status).toBe(422);
    expect(await response.json()).toHaveProperty("error");
  });

  it("computes TOTP codes: RFC 6238's SHA1 vector (8 digits) and 6 digits by default", async () => {
    const secret = base32(Buffer.from("12345678901234567890", "ascii"));
    const eight = await post("/oracle/totp", { secret, timeMs: 59_000, digits: 8 });
    expect(await eight.json()).toEqual({ code: "94287082" });
    const six = await post("/oracle/totp", { secret, timeMs: 59_000 });
    expect(await six.json()).toEqual({ code: "287082" });
    const laterVector = await post("/oracle/totp", {
      secret,
      timeMs: 1_111_111_109_000,
      digits: 8,
    });
    expect(await laterVector.json()).toEqual({ code: "07081804" });
    const bad = await post("/oracle/totp", { secret: "not base32!" });
    expect(bad.status).toBe(400);
  });
});

async function decodeQr(png: Buffer): Promise<Response> {
  return await fetch(`${base}/oracle/qr/decode`, {
    method: "POST",
    headers: { "content-type": "image/png" },
    body: new Uint8Array(png),
  });
}

/** Modules of a version 1 QR code for "stand-ins", made with qrcode-svg (an independent encoder). */
const QR_STAND_INS = [
  "#######..#.##.#######",
  "#.....#.##.#..#.....#",
  "#.###.#.##..#.#.###.#",
  "#.###.#..#.#..#.###.#",
  "#.###.#.#...#.#.###.#",
  "#.....#.#..##.#.....#",
  "#######.#.#.#.#######",
  "........#####........",
  "##.#..##.##...###.##.",
  ".#...#....#...###...#",
  ".#...###.#..##.#..#.#",
  "##..##..##.#..#..#...",
  "#.#####..#..##......#",
  "........####...#.#.##",
  "#######.##...####.##.",
  "#.....#...####.......",
  "#.###.#..###.####..#.",
  "#.###.#.#..#...######",
  "#.###.#..#..#...#...#",
  "#.....#.##...####....",
  "#######.#..##..###.#.",
];

/** Black modules of 8×8 pixels on white, with the 4-module quiet zone scanners need. */
function pngOf(rows: string[], scale = 8, quiet = 4): Buffer {
  const size = (rows.length + 2 * quiet) * scale;
  const png = new PNG({ width: size, height: size });
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      const dark = rows[Math.floor(y / scale) - quiet]?.[Math.floor(x / scale) - quiet] === "#";
      const offset = (y * size + x) * 4;
      png.data.fill(dark ? 0 : 255, offset, offset + 3);
      png.data[offset + 3] = 255;
    }
  }
  return PNG.sync.write(png);
}

/** RFC 4648 base32 without padding. */
function base32(bytes: Buffer): string {
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
  let bits = "";
  for (const byte of bytes) bits += byte.toString(2).padStart(8, "0");
  let out = "";
  for (let i = 0; i < bits.length; i += 5)
    out += alphabet[Number.parseInt(bits.slice(i, i + 5).padEnd(5, "0"), 2)];
  return out;
}
