import ipaddr from "ipaddr.js";

/**
 * The network a client address stands for, as rate limits count it: an IPv4 address by itself,
 * an IPv6 address by its /64 (one customer's network: a single host may use any of its 2^64
 * addresses, so counting per address would let it rotate past every limit). IPv4-mapped IPv6
 * addresses count as the IPv4 address; something that is no address counts as itself.
 */
export function clientNetwork(address: string): string {
  if (!ipaddr.isValid(address)) return address;
  const parsed = ipaddr.process(address);
  if (parsed.kind() === "ipv4") return parsed.toString();
  const prefix = (parsed as ipaddr.IPv6).parts.slice(0, 4).map((part) => part.toString(16));
  return `${prefix.join(":")}::/64`;
}

/**
 * The wider networks an IPv6 client is in, as sign-in limits also count them: its /56 (a home or
 * a small site) and its /48 (a site: 65,536 /64 networks, which one holder may rotate through).
 * None for an IPv4 address (or something that is no address).
 */
export function widerNetworks(address: string): Array<{ prefix: 56 | 48; network: string }> {
  if (!ipaddr.isValid(address)) return [];
  const parsed = ipaddr.process(address);
  if (parsed.kind() === "ipv4") return [];
  const parts = (parsed as ipaddr.IPv6).parts;
  return ([56, 48] as const).map((prefix) => {
    // A /56 keeps the 4th group's high byte; a /48 the first three groups.
    const kept =
      prefix === 48 ? parts.slice(0, 3) : [...parts.slice(0, 3), (parts[3] ?? 0) & 0xff00];
    return { prefix, network: `${kept.map((part) => part.toString(16)).join(":")}::/${prefix}` };
  });
}
