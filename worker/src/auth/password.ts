import Argon2, { Argon2Type, Argon2Version } from "@phi-ag/argon2";
import wasm from "@phi-ag/argon2/argon2.wasm";

/** OWASP's argon2id baseline; PHC strings, so parameters can be raised later per hash. */
const OPTIONS = {
  type: Argon2Type.Argon2id,
  version: Argon2Version.Version13,
  memoryCost: 19_456,
  timeCost: 2,
  parallelism: 1,
  hashLength: 32,
} as const;

// One instance per isolate: instantiating the module costs far more than a request should.
let argon2: Promise<Argon2> | undefined;
const instance = () => {
  argon2 ??= WebAssembly.instantiate(wasm).then((module) => new Argon2(module));
  return argon2;
};

export async function hashPassword(password: string): Promise<string> {
  return (await instance()).hash(password, OPTIONS).encoded;
}

/** False for a wrong password and for a hash that is not a well-formed argon2 PHC string. */
export async function verifyPassword(encoded: string, password: string): Promise<boolean> {
  if (!encoded.startsWith("$argon2")) return false;
  return (await instance()).tryVerify(encoded, password).success;
}

// A real hash of a random password: verifying against it when the account does not exist (or
// has no password) costs the same time as a real check, so timing does not reveal accounts.
let decoy: Promise<string> | undefined;
/** Spends a verification's time and answers false, like a wrong password. */
export async function spendVerifyTime(password: string): Promise<false> {
  decoy ??= hashPassword(crypto.randomUUID());
  await verifyPassword(await decoy, password);
  return false;
}
