import { XMLParser } from "fast-xml-parser";
import { describe, expect, it } from "vitest";
import { app, uniqueIp } from "../support/auth.ts";
import { send } from "../support/env.ts";
import { appAccount, call, catalogue, errorCode, json, xml } from "./support.ts";

const HEAD = {
  status: "ok",
  version: "1.16.1",
  type: "edge-music",
  openSubsonic: true,
};

describe("the Subsonic door", () => {
  it("answers XML by default in the protocol's namespace, with every member of the head", async () => {
    const account = await appAccount();
    const answer = await call("ping", { apiKey: account.appPassword });
    const text = await answer.clone().text();
    expect(text.startsWith('<?xml version="1.0" encoding="UTF-8"?>')).toBe(true);
    const body = await xml(answer);
    expect(body).toMatchObject({
      xmlns: "http://subsonic.org/restapi",
      status: "ok",
      version: "1.16.1",
      type: "edge-music",
      openSubsonic: "true",
    });
    expect(body.serverVersion).toMatch(/^\d+\.\d+\.\d+/);
  });

  it("answers JSON and JSONP; a JSONP callback that is not a name is refused, never run", async () => {
    const account = await appAccount();
    const body = await json(await call("ping", { apiKey: account.appPassword, f: "json" }));
    expect(body).toMatchObject(HEAD);
    expect(typeof body.serverVersion).toBe("string");

    const jsonp = await call("ping", { apiKey: account.appPassword, f: "jsonp", callback: "cb" });
    expect(jsonp.headers.get("content-type")).toMatch(/^application\/javascript/);
    const script = await jsonp.text();
    expect(script).toMatch(/^cb\(\{.*\}\);$/);
    const wrapped = JSON.parse(script.slice(3, -2));
    expect(wrapped["subsonic-response"]).toMatchObject(HEAD);

    const hostile = await call("ping", {
      apiKey: account.appPassword,
      f: "jsonp",
      callback: "alert(1)//",
    });
    expect(hostile.headers.get("content-type")).toMatch(/^application\/json/);
    expect(await errorCode(hostile)).toBe(10);
  });

  it("takes /rest/<method>.view and a form-encoded POST (formPost)", async () => {
    const account = await appAccount();
    const view = await call("ping", { apiKey: account.appPassword, f: "json" }, { view: true });
    expect(await errorCode(view)).toBeUndefined();
    const posted = await call(
      "ping",
      { apiKey: account.appPassword, f: "json" },
      { method: "POST", view: true },
    );
    expect(await errorCode(posted)).toBeUndefined();
  });

  it("errors are HTTP 200 with the code in the envelope, in the format asked, never a problem document", async () => {
    const answer = await call("ping", {});
    expect(answer.status).toBe(200);
    expect(answer.headers.get("content-type")).not.toMatch(/problem/);
    const body = await xml(answer);
    expect(body).toMatchObject({ status: "failed", error: { code: "10" } });
    expect(body.error.message).toMatch(/'u'/);
    expect(await errorCode(await call("ping", { f: "json" }))).toBe(10);
  });

  it("getOpenSubsonicExtensions answers without credentials", async () => {
    const body = await json(await call("getOpenSubsonicExtensions", { f: "json" }));
    expect(body.status).toBe("ok");
    expect(body.openSubsonicExtensions).toEqual(
      expect.arrayContaining([
        { name: "apiKeyAuthentication", versions: [1] },
        { name: "formPost", versions: [1] },
      ]),
    );
    const asXml = await xml(await call("getOpenSubsonicExtensions", {}));
    expect(asXml.openSubsonicExtensions).toEqual(
      expect.arrayContaining([{ name: "formPost", versions: 1 }]),
    );
  });

  it("an unknown method is error 70", async () => {
    const account = await appAccount();
    expect(
      await errorCode(await call("jukeboxControl", { apiKey: account.appPassword, f: "json" })),
    ).toBe(70);
  });

  it("lets apps of any origin call it, without credentials in CORS (nothing to forge: no cookie is read)", async () => {
    const preflight = await send(app, "/rest/ping", {
      method: "OPTIONS",
      headers: {
        origin: "https://player.example",
        "access-control-request-method": "GET",
        "cf-connecting-ip": uniqueIp(),
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("access-control-allow-origin")).toBe("*");
    expect(preflight.headers.get("access-control-allow-credentials")).toBeNull();
    const account = await appAccount();
    const crossSite = await call(
      "ping",
      { apiKey: account.appPassword, f: "json" },
      {
        method: "POST",
        headers: { origin: "https://player.example", "sec-fetch-site": "cross-site" },
      },
    );
    expect(await errorCode(crossSite)).toBeUndefined();
  });

  it("escapes what it writes into XML", async () => {
    const { album } = await catalogue();
    const account = await appAccount();
    const answer = await call("getAlbum", { apiKey: account.appPassword, id: album.id });
    const text = await answer.clone().text();
    expect(text).toContain("&amp;");
    expect(text).not.toContain('"Friends"');
    const parsed = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: "" }).parse(text);
    expect(parsed["subsonic-response"].album.name).toBe(album.title);
  });
});
