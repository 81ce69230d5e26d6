// The API reference page in a real browser (Debian's Chromium through playwright-core) on the
// local stack's Worker (its static assets included): it renders the document's
// operations with nothing fetched from any other origin and no Content-Security-Policy breach.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type DevWorker, type Infra, startStackInfra, startStackWorker } from "@edge-music/stack";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, test } from "vitest";
import { launchChromium } from "./support/browser-player.ts";

let infra: Infra;
let worker: DevWorker;
let browser: Browser;
let tmp: string;

beforeAll(async () => {
  tmp = await mkdtemp(join(tmpdir(), "edge-music-e2e-reference-"));
  infra = await startStackInfra(inject("stackBase"));
  [worker, browser] = await Promise.all([startStackWorker(infra, { tmp }), launchChromium()]);
});

afterAll(async () => {
  await browser?.close();
  await worker?.stop();
  await infra?.stop();
  if (tmp) await rm(tmp, { recursive: true, force: true });
});

interface Operation {
  summary?: string;
  operationId?: string;
}

describe("the API reference page", () => {
  test("renders every operation from our origin alone, within its Content-Security-Policy", async () => {
    const origin = new URL(worker.url).origin;
    const spec = (await (await fetch(`${worker.url}/api/v1/openapi.json`)).json()) as {
      paths: Record<string, Record<string, Operation>>;
    };
    const operations = Object.values(spec.paths).flatMap((item) => Object.values(item));
    expect(operations.length).toBeGreaterThan(60);

    const page = await browser.newPage();
    const elsewhere: string[] = [];
    const breaches: string[] = [];
    const errors: string[] = [];
    page.on("request", (request) => {
      const url = new URL(request.url());
      if (!["data:", "blob:"].includes(url.protocol) && url.origin !== origin) {
        elsewhere.push(request.url());
      }
    });
    page.on("console", (message) => {
      if (/Content Security Policy|Refused to/i.test(message.text())) breaches.push(message.text());
    });
    page.on("pageerror", (error) => errors.push(error.message));
    // Nothing beyond the stack: any other request fails instead of reaching the network.
    await page.route(
      (url) => url.origin !== origin && !["data:", "blob:"].includes(url.protocol),
      (route) => route.abort(),
    );

    const answer = await page.goto(`${worker.url}/api/v1/docs`);
    expect(answer?.status()).toBe(200);
    expect(answer?.headers()["content-security-policy"]).toMatch(/default-src 'none'/);
    const first = operations.find((o) => o.summary)?.summary ?? "";
    await page.getByText(first, { exact: true }).first().waitFor({ timeout: 30_000 });

    // Every operation's summary is on the page (the sidebar lists them all, tags expanded).
    const text = await page.evaluate(async () => {
      const collapsed = document.querySelectorAll<HTMLElement>("button[aria-expanded='false']");
      for (let i = 0; i < collapsed.length; i++) collapsed.item(i).click();
      await new Promise((resolve) => setTimeout(resolve, 500));
      return document.body.textContent ?? "";
    });
    const missing = operations
      .map((o) => o.summary ?? "")
      .filter((summary) => summary && !text.includes(summary));
    expect(missing).toEqual([]);
    expect(elsewhere).toEqual([]);
    expect(breaches).toEqual([]);
    expect(errors).toEqual([]);
    await page.close();
  });
});
