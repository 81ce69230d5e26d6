import QRCode from "qrcode-svg";

export interface QrPngOptions {
  /** Pixels per module (default 6). */
  scale?: number;
  /** Quiet zone in modules on every side (default 4, the minimum the QR standard asks for). */
  margin?: number;
}

// Every array here is backed by a plain ArrayBuffer, which Blob and fetch bodies require.
type Bytes = Uint8Array<ArrayBuffer>;

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const BIT_DEPTH = 1;
const COLOR_GRAYSCALE = 0;

/**
 * Renders `text` as a QR code (error correction M), black on white, as a 1-bit grayscale PNG.
 * Meant for ASCII such as otpauth URIs: qrcode-svg prefixes non-ASCII content with a UTF-8 BOM.
 */
export async function qrCodePng(text: string, options: QrPngOptions = {}): Promise<Bytes> {
  const { scale = 6, margin = 4 } = options;
  if (!Number.isInteger(scale) || scale < 1) throw new RangeError(`invalid scale: ${scale}`);
  if (!Number.isInteger(margin) || margin < 0) throw new RangeError(`invalid margin: ${margin}`);
  // Only the module matrix: the library's own svg() swaps rows and columns.
  const { modules } = new QRCode({ content: text, ecl: "M", padding: 0 }).qrcode;
  const size = (modules.length + 2 * margin) * scale;
  const pixels = await deflate(scanlines(modules, scale, margin));
  return concat([
    Uint8Array.from(PNG_SIGNATURE),
    chunk("IHDR", header(size)),
    chunk("IDAT", pixels),
    chunk("IEND", new Uint8Array(0)),
  ]);
}

/** The PNG of `text` as plain base64 (no `data:` prefix). */
export async function qrCodePngBase64(text: string): Promise<string> {
  return toBase64(await qrCodePng(text));
}

function header(size: number): Bytes {
  const bytes = new Uint8Array(13);
  const view = new DataView(bytes.buffer);
  view.setUint32(0, size);
  view.setUint32(4, size);
  // Compression, filter and interlace methods stay 0: deflate, adaptive, none.
  bytes.set([BIT_DEPTH, COLOR_GRAYSCALE], 8);
  return bytes;
}

/** Raw image data: per pixel row, a filter byte (0: none) then 1 bit per pixel (1 = white). */
function scanlines(modules: boolean[][], scale: number, margin: number): Bytes {
  const count = modules.length + 2 * margin;
  const size = count * scale;
  const stride = 1 + Math.ceil(size / 8);
  const out = new Uint8Array(stride * size);
  for (let r = 0; r < count; r++) {
    // Outside the matrix (quiet zone, padding bits of the last byte) `dark` is undefined: white.
    const dark = modules[r - margin];
    const line = new Uint8Array(stride);
    for (let i = 1; i < stride; i++) {
      let byte = 0;
      for (let x = (i - 1) * 8; x < i * 8; x++) {
        byte = (byte << 1) | (dark?.[Math.floor(x / scale) - margin] ? 0 : 1);
      }
      line[i] = byte;
    }
    for (let y = r * scale; y < (r + 1) * scale; y++) out.set(line, y * stride);
  }
  return out;
}

// PNG requires the zlib wrapper, which is what "deflate" (not "deflate-raw") produces.
async function deflate(data: Bytes): Promise<Bytes> {
  const stream = new Blob([data]).stream().pipeThrough(new CompressionStream("deflate"));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

function chunk(type: string, data: Bytes): Bytes {
  const bytes = new Uint8Array(12 + data.length);
  const view = new DataView(bytes.buffer);
  view.setUint32(0, data.length);
  for (let i = 0; i < 4; i++) bytes[4 + i] = type.charCodeAt(i);
  bytes.set(data, 8);
  view.setUint32(8 + data.length, crc32(bytes.subarray(4, 8 + data.length)));
  return bytes;
}

const CRC_TABLE = Uint32Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c;
});

/** CRC-32 (ISO 3309 / ITU-T V.42), over a chunk's type and data. */
function crc32(bytes: Uint8Array): number {
  let crc = 0xffffffff;
  for (const byte of bytes) crc = (CRC_TABLE[(crc ^ byte) & 0xff] as number) ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

function concat(parts: Bytes[]): Bytes {
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

// Spreading a whole image into String.fromCharCode would overflow the argument stack.
function toBase64(bytes: Uint8Array): string {
  const CHUNK = 0x8000;
  let binary = "";
  for (let i = 0; i < bytes.length; i += CHUNK) {
    binary += String.fromCharCode(...bytes.subarray(i, i + CHUNK));
  }
  return btoa(binary);
}
