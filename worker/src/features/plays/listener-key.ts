import { clientNetwork } from "../../security/client-network.ts";

const encoder = new TextEncoder();

/** A signed-in listener's key: the user id. */
export const userListener = (userId: string) => `u:${userId}`;

/**
 * An anonymous listener's key: an HMAC of its network (an IPv4 address, an IPv6 /64) under a
 * salt of the day, made from `secret` (the Worker's JWT secret). The address is never stored or
 * sent anywhere; a key cannot be turned back into it without the secret, and keys of two days
 * cannot be linked, so the same network is one listener per day and per track.
 */
export async function networkListener(secret: string, ip: string, now: Date): Promise<string> {
  const day = now.toISOString().slice(0, 10);
  const key = await crypto.subtle.importKey(
    "raw",
    encoder.encode(secret),
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign"],
  );
  const mac = await crypto.subtle.sign(
    "HMAC",
    key,
    encoder.encode(`plays-network:${day}:${clientNetwork(ip)}`),
  );
  const hex = Array.from(new Uint8Array(mac).subarray(0, 16), (b) =>
    b.toString(16).padStart(2, "0"),
  ).join("");
  return `n:${hex}`;
}
