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
