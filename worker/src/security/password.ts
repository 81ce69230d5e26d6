import wasm from "@phi-ag/argon2/argon2.wasm";

/**
 * argon2id through the WebAssembly build of the reference implementation that `@phi-ag/argon2`
 * ships, called directly: its JavaScript wrapper (0.5.28) passes the password's UTF-16 length
 * as its byte length, so any non-ASCII password would be truncated before hashing (and its
 * hashes would not verify elsewhere). Here the length is the UTF-8 byte count.
 */
const COSTS = {
  // OWASP's argon2id setting (19 MiB, two passes, one lane): what every deployment hashes with.
  standard: { timeCost: 2, memoryCost: 19_456, parallelism: 1, hashLength: 32 },
  // The least argon2id allows (8 KiB, one pass): the Worker's test suite only, where sign-ups are
  // many and a hash's strength is not what is tested (env.ts refuses it outside development).
  // Verification reads the cost from the hash itself, so either verifies anywhere.
  "minimal-for-tests": { timeCost: 1, memoryCost: 8, parallelism: 1, hashLength: 32 },
} as const;
export type HashCost = keyof typeof COSTS;
const ARGON2ID = 2;
const VERSION_13 = 0x13;
const SALT_BYTES = 16;

interface Argon2Exports {
  memory: WebAssembly.Memory;
  _initialize(): void;
  malloc(size: number): number;
  free(ptr: number): void;
  argon2_encodedlen(
    t: number,
    m: number,
    p: number,
    saltLen: number,
    hashLen: number,
    type: number,
  ): number;
  argon2_hash(
    t: number,
    m: number,
    p: number,
    pwd: number,
    pwdLen: number,
    salt: number,
    saltLen: number,
    hash: number,
    hashLen: number,
    encoded: number,
    encodedLen: number,
    type: number,
    version: number,
  ): number;
  argon2_verify(encoded: number, pwd: number, pwdLen: number, type: number): number;
}

// One instance per isolate: instantiating the module costs far more than a request should.
let instance: Promise<Argon2Exports> | undefined;
const argon2 = () => {
  instance ??= WebAssembly.instantiate(wasm).then((i) => {
    const exports = i.exports as unknown as Argon2Exports;
    exports._initialize();
    return exports;
  });
  return instance;
};

/** Runs `fn` with `buffers` copied into WASM memory, then frees them (the heap is reused). */
function withHeap<T>(lib: Argon2Exports, buffers: Uint8Array[], fn: (ptrs: number[]) => T): T {
  const ptrs = buffers.map((b) => lib.malloc(Math.max(1, b.length)));
  try {
    const heap = new Uint8Array(lib.memory.buffer);
    for (const [i, buffer] of buffers.entries()) heap.set(buffer, ptrs[i]);
    return fn(ptrs);
  } finally {
    for (const ptr of ptrs) lib.free(ptr);
  }
}

// NIST SP 800-63B: Unicode passwords are normalised (NFKC) so that the same typed password
// matches whatever composition a keyboard or OS produced.
const passwordBytes = (password: string) => new TextEncoder().encode(password.normalize("NFKC"));

export async function hashPassword(password: string, cost: HashCost = "standard"): Promise<string> {
  const lib = await argon2();
  const { timeCost: t, memoryCost: m, parallelism: p, hashLength } = COSTS[cost];
  const pwd = passwordBytes(password);
  const salt = crypto.getRandomValues(new Uint8Array(SALT_BYTES));
  const encodedLength = lib.argon2_encodedlen(t, m, p, SALT_BYTES, hashLength, ARGON2ID);
  const out = [new Uint8Array(hashLength), new Uint8Array(encodedLength)];
  return withHeap(
    lib,
    [pwd, salt, ...out],
    ([pwdPtr = 0, saltPtr = 0, hashPtr = 0, encPtr = 0]) => {
      const code = lib.argon2_hash(
        t,
        m,
        p,
        pwdPtr,
        pwd.length,
        saltPtr,
        SALT_BYTES,
        hashPtr,
        hashLength,
        encPtr,
        encodedLength,
        ARGON2ID,
        VERSION_13,
      );
      if (code !== 0) throw new Error(`argon2_hash failed (${code})`);
      const heap = new Uint8Array(lib.memory.buffer, encPtr, encodedLength - 1);
      return new TextDecoder().decode(heap);
    },
  );
}

/** False for a wrong password and for anything that is not a well-formed argon2id PHC string. */
export async function verifyPassword(encoded: string, password: string): Promise<boolean> {
  if (!encoded.startsWith("$argon2id$")) return false;
  const lib = await argon2();
  const enc = new TextEncoder().encode(`${encoded}\0`);
  const pwd = passwordBytes(password);
  return withHeap(
    lib,
    [enc, pwd],
    ([encPtr = 0, pwdPtr = 0]) => lib.argon2_verify(encPtr, pwdPtr, pwd.length, ARGON2ID) === 0,
  );
}

// A real hash of a random password, at the deployment's cost: verifying against it when the
// account does not exist (or has no password) costs the same time as a real check, so timing does
// not reveal accounts.
const decoys = new Map<HashCost, Promise<string>>();
/** Spends a verification's time and answers false, like a wrong password. */
export async function spendVerifyTime(
  password: string,
  cost: HashCost = "standard",
): Promise<false> {
  const decoy = decoys.get(cost) ?? hashPassword(crypto.randomUUID(), cost);
  decoys.set(cost, decoy);
  await verifyPassword(await decoy, password);
  return false;
}
