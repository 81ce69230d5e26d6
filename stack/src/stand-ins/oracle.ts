import { type Algorithm, hash, verify } from "@node-rs/argon2";
import jsQR from "jsqr";
import { generate } from "otplib";
import { PNG } from "pngjs";
import { json, jsonObject, mediaType, type Routes, type StandInRequest } from "./http.ts";

/** Algorithm.Argon2id: the enum is an ambient const enum, unreadable under isolatedModules. */
const ARGON2ID: Algorithm = 2;
/** OWASP's argon2id minimum, which the Worker uses too. */
const ARGON2_OPTIONS = { algorithm: ARGON2ID, memoryCost: 19456, timeCost: 2, parallelism: 1 };
const TOTP_ALGORITHMS = new Set(["sha1", "sha256", "sha512"]);

const badInput = (error: string) => json(400, { error });

/**
 * Independent, Node-only implementations the Worker's tests (in workerd) check their results
 * against: argon2 (@node-rs/argon2), QR decoding (pngjs + jsQR) and TOTP (otplib).
 */
export function oracleRoutes(): Routes {
  return {
    "POST /oracle/argon2/hash": async (request) => {
      const { password } = jsonObject(request) ?? {};
      if (typeof password !== "string") return badInput("password must be a string");
      return json(200, { hash: await hash(password, ARGON2_OPTIONS) });
    },
    "POST /oracle/argon2/verify": async (request) => {
      const { hash: phc, password } = jsonObject(request) ?? {};
      if (typeof phc !== "string" || typeof password !== "string")
        return badInput("hash and password must be strings");
      // verify throws on a string that is not an argon2 PHC hash.
      const ok = await verify(phc, password).catch(() => undefined);
      return ok === undefined ? badInput("hash is not an argon2 PHC string") : json(200, { ok });
    },
    "POST /oracle/qr/decode": (request) => decodeQr(request),
    "POST /oracle/totp": async (request) => {
      const options = totpOptions(jsonObject(request));
      if (typeof options === "string") return badInput(options);
      try {
        return json(200, { code: await generate(options) });
      } catch (error) {
        // otplib rejects secrets that are not base32 or shorter than 128 bits.
        return badInput(error instanceof Error ? error.message : "invalid TOTP parameters");
      }
    },
  };
}

function decodeQr(request: StandInRequest) {
  if (mediaType(request) !== "image/png") return badInput("the body must be image/png");
  let image: PNG;
  try {
    image = PNG.sync.read(request.body);
  } catch {
    return badInput("the body is not a valid PNG");
  }
  const pixels = new Uint8ClampedArray(image.data.buffer, image.data.byteOffset, image.data.length);
  const found = jsQR(pixels, image.width, image.height);
  return found ? json(200, { text: found.data }) : json(422, { error: "no QR code found" });
}

interface TotpOptions {
  secret: string;
  epoch: number;
  digits: number;
  period: number;
  algorithm: "sha1" | "sha256" | "sha512";
}

function totpOptions(body: Record<string, unknown> | undefined): TotpOptions | string {
  if (!body) return "the body must be a JSON object";
  const { secret, timeMs = Date.now(), digits = 6, period = 30, algorithm = "SHA1" } = body;
  if (typeof secret !== "string" || secret.trim() === "") return "secret must be a base32 string";
  if (typeof timeMs !== "number" || !Number.isFinite(timeMs) || timeMs < 0)
    return "timeMs must be a non-negative number";
  if (!Number.isInteger(digits) || (digits as number) < 6 || (digits as number) > 10)
    return "digits must be an integer from 6 to 10";
  if (!Number.isInteger(period) || (period as number) < 1)
    return "period must be a positive integer (seconds)";
  const hashName = typeof algorithm === "string" ? algorithm.toLowerCase() : "";
  if (!TOTP_ALGORITHMS.has(hashName)) return "algorithm must be SHA1, SHA256 or SHA512";
  return {
    // Authenticator apps tolerate spaces, lower case and padding; so does the oracle.
    secret: secret.replace(/\s+/g, "").replace(/=+$/, "").toUpperCase(),
    epoch: Math.floor(timeMs / 1000),
    digits: digits as number,
    period: period as number,
    algorithm: hashName as TotpOptions["algorithm"],
  };
}
