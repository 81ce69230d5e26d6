import QRCode from "qrcode-svg";
import { describe, expect, inject, it } from "vitest";
import { qrCodePng, qrCodePngBase64 } from "../../../src/features/auth/two-factor/qr-png.ts";

const URI =
  "otpauth://totp/Edge%20Music:alice%40example.com?secret=JBSWY3DPEHPK3PXP&issuer=Edge%20Music&algorithm=SHA1&digits=6&period=30";
const SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

interface Chunk {
  type: string;
  data: Uint8Array<ArrayBuffer>;
  crc: number;
}

function chunksOf(png: Uint8Array<ArrayBuffer>): Chunk[] {
  const view = new DataView(png.buffer, png.byteOffset, png.byteLength);
  const chunks: Chunk[] = [];
  for (let at = SIGNATURE.length; at < png.length; ) {
    const length = view.getUint32(at);
    const type = String.fromCharCode(...png.subarray(at + 4, at + 8));
    chunks.push({
      type,
      data: png.slice(at + 8, at + 8 + length),
      crc: view.getUint32(at + 8 + length),
    });
    at += 12 + length;
  }
  return chunks;
}

// Bitwise on purpose: independent of the table-driven implementation under test.
function crc32(bytes: Uint8Array): number {
  let crc = 0xffffffff;
  for (const byte of bytes) {
    crc ^= byte;
    for (let k = 0; k < 8; k++) crc = crc & 1 ? (crc >>> 1) ^ 0xedb88320 : crc >>> 1;
  }
  return (crc ^ 0xffffffff) >>> 0;
}

function header(png: Uint8Array<ArrayBuffer>) {
  const ihdr = chunksOf(png)[0];
  if (ihdr?.type !== "IHDR") throw new Error("IHDR is not the first chunk");
  const view = new DataView(ihdr.data.buffer);
  return {
    width: view.getUint32(0),
    height: view.getUint32(4),
    bitDepth: ihdr.data[8] ?? 0,
    colorType: ihdr.data[9] ?? 0,
    interlace: ihdr.data[12] ?? 0,
  };
}

/** Grayscale samples as booleans (true = black), for unfiltered, non-interlaced images. */
async function blackPixels(png: Uint8Array<ArrayBuffer>): Promise<boolean[][]> {
  const { width, height, bitDepth } = header(png);
  const idat = new Blob(
    chunksOf(png)
      .filter((c) => c.type === "IDAT")
      .map((c) => c.data),
  );
  const inflated = idat.stream().pipeThrough(new DecompressionStream("deflate"));
  const raw = new Uint8Array(await new Response(inflated).arrayBuffer());
  const stride = 1 + Math.ceil((width * bitDepth) / 8);
  expect(raw.length).toBe(stride * height);
  return Array.from({ length: height }, (_, y) => {
    expect(raw[y * stride], "filter type").toBe(0);
    return Array.from({ length: width }, (_, x) => {
      const bit = x * bitDepth;
      const byte = raw[y * stride + 1 + (bit >> 3)] ?? 0;
      return ((byte >> (8 - bitDepth - (bit & 7))) & ((1 << bitDepth) - 1)) === 0;
    });
  });
}

const matrixOf = (text: string) =>
  new QRCode({ content: text, ecl: "M", padding: 0 }).qrcode.modules;

describe("qrCodePng", () => {
  it("is a grayscale PNG sized (modules + 2 × margin) × scale", async () => {
    const png = await qrCodePng(URI);
    expect([...png.subarray(0, 8)]).toEqual(SIGNATURE);
    const size = (matrixOf(URI).length + 2 * 4) * 6;
    expect(header(png)).toMatchObject({ width: size, height: size, colorType: 0, interlace: 0 });
    const custom = await qrCodePng(URI, { scale: 3, margin: 2 });
    const customSize = (matrixOf(URI).length + 2 * 2) * 3;
    expect(header(custom)).toMatchObject({ width: customSize, height: customSize });
  });

  it("ends with IEND and carries a correct CRC on every chunk", async () => {
    const chunks = chunksOf(await qrCodePng(URI));
    expect(chunks.map((c) => c.type)).toEqual(["IHDR", "IDAT", "IEND"]);
    for (const { type, data, crc } of chunks) {
      const typed = new Uint8Array([...Array.from(type, (ch) => ch.charCodeAt(0)), ...data]);
      expect(crc, type).toBe(crc32(typed));
    }
  });

  it("draws the module matrix black on white, row by row, inside a white quiet zone", async () => {
    const [scale, margin] = [2, 3];
    const modules = matrixOf(URI);
    const pixels = await blackPixels(await qrCodePng(URI, { scale, margin }));
    const expected = pixels.map((row, y) =>
      row.map((_, x) => {
        const [r, c] = [Math.floor(y / scale) - margin, Math.floor(x / scale) - margin];
        return modules[r]?.[c] === true;
      }),
    );
    expect(pixels).toEqual(expected);
  });

  it.each([{}, { scale: 2, margin: 4 }])("decodes back to the text (%o)", async (options) => {
    const response = await fetch(`${inject("infra").standIns.url}/oracle/qr/decode`, {
      method: "POST",
      headers: { "content-type": "image/png" },
      body: await qrCodePng(URI, options),
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ text: URI });
  });

  it("rejects a scale or margin that is not a whole number of pixels", async () => {
    await expect(qrCodePng(URI, { scale: 0 })).rejects.toThrow(RangeError);
    await expect(qrCodePng(URI, { margin: 1.5 })).rejects.toThrow(RangeError);
  });
});

describe("qrCodePngBase64", () => {
  it("is the same PNG in plain base64", async () => {
    const base64 = await qrCodePngBase64(URI);
    expect(base64).toMatch(/^[A-Za-z0-9+/]+=*$/);
    const bytes = Uint8Array.from(atob(base64), (ch) => ch.charCodeAt(0));
    expect(bytes).toEqual(await qrCodePng(URI));
  });
});
