import { describe, expect, it } from "vitest";
import { clientNetwork, widerNetworks } from "../../src/security/client-network.ts";
import { authPath, Client, uniqueEmail } from "../support/auth.ts";
import { expectProblem } from "../support/problem.ts";

describe("clientNetwork", () => {
  it("keys IPv4 by the address and IPv6 by its /64, however it is written", () => {
    expect(clientNetwork("203.0.113.7")).toBe("203.0.113.7");
    expect(clientNetwork("2001:db8:1:2:aaaa:bbbb:cccc:dddd")).toBe("2001:db8:1:2::/64");
    expect(clientNetwork("2001:0db8:0001:0002::1")).toBe("2001:db8:1:2::/64");
    expect(clientNetwork("2001:DB8:1:2::ffff")).toBe("2001:db8:1:2::/64");
    expect(clientNetwork("2001:db8::1")).toBe("2001:db8:0:0::/64");
    expect(clientNetwork("2001:db8:1:3::1")).toBe("2001:db8:1:3::/64");
    // An IPv4 client seen through an IPv6 socket is still that IPv4 address.
    expect(clientNetwork("::ffff:203.0.113.7")).toBe("203.0.113.7");
    expect(clientNetwork("unknown")).toBe("unknown");
  });
});

describe("widerNetworks", () => {
  it("names an IPv6 client's /56 and /48, and nothing for IPv4", () => {
    expect(widerNetworks("2001:db8:1:3a7f::1")).toEqual([
      { prefix: 56, network: "2001:db8:1:3a00::/56" },
      { prefix: 48, network: "2001:db8:1::/48" },
    ]);
    // Two /64s of one /56 share it; a /64 of another /56 in the same /48 shares only the /48.
    expect(widerNetworks("2001:db8:1:3a01::9")[0]).toEqual(widerNetworks("2001:db8:1:3aff::1")[0]);
    expect(widerNetworks("2001:db8:1:3b00::1")[0]?.network).toBe("2001:db8:1:3b00::/56");
    expect(widerNetworks("2001:db8:1:3b00::1")[1]?.network).toBe("2001:db8:1::/48");
    expect(widerNetworks("203.0.113.7")).toEqual([]);
    expect(widerNetworks("::ffff:203.0.113.7")).toEqual([]);
    expect(widerNetworks("unknown")).toEqual([]);
  });
});

describe("rate limits by network", () => {
  it("counts every address of one IPv6 /64 as one client, and another /64 apart", async () => {
    const network = `2001:db8:${Math.floor(Math.random() * 0xffff).toString(16)}:7`;
    const host = (i: number) => `${network}:${i.toString(16)}::${(i * 7).toString(16)}`;
    const forgot = (ip: string) =>
      new Client(ip).post(`${authPath("user")}/password/forgot`, { email: uniqueEmail() });
    // 20 reset requests per network and hour, each from another address of the same /64.
    for (let i = 1; i <= 20; i++) expect((await forgot(host(i))).status).toBe(202);
    await expectProblem(await forgot(host(21)), 429, "RATE_LIMITED");
    expect((await forgot(`${network.replace(/:7$/, ":8")}::1`)).status).toBe(202);
  });
});
