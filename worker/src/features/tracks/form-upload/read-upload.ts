import { sanitizeFileName, trackKeys } from "@edge-music/contracts";
import {
  MalformedRequestError,
  PayloadTooLargeError,
  UnsupportedMediaTypeError,
  ValidationError,
} from "../../../errors/app-error.ts";
import {
  AUDIO_CONTENT_TYPES,
  AUDIO_SNIFF_BYTES,
  notAudioMessage,
  sniffAudio,
} from "../../../file-input/audio.ts";
import { parseMultipartStream, type StreamedPart } from "../../../file-input/multipart-stream.ts";
import { IMAGE_MAX_BYTES, type Image, sniffImage } from "../../../images/images.ts";
import { type ObjectStorage, ObjectTooLargeError } from "../../../storage/index.ts";

export interface UploadForm {
  title: string | undefined;
  albumId: string | undefined;
  visibility: string | undefined;
  cover: Image | undefined;
  source: { key: string; fileName: string } | undefined;
}

/** Reads a part whole, refusing more than `max` bytes (text fields, the cover). */
async function readLimited(part: StreamedPart, max: number, tooLarge: () => Error) {
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = part.body.getReader();
  for (let read = await reader.read(); !read.done; read = await reader.read()) {
    size += read.value.length;
    if (size > max) {
      await reader.cancel().catch(() => {});
      throw tooLarge();
    }
    chunks.push(read.value);
  }
  const out = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.length;
  }
  return out;
}

/** The first bytes of a stream, and a stream that replays them before the rest. */
async function peek(stream: ReadableStream<Uint8Array>, bytes: number) {
  const reader = stream.getReader();
  const head: Uint8Array[] = [];
  let size = 0;
  while (size < bytes) {
    const { done, value } = await reader.read();
    if (done) break;
    head.push(value);
    size += value.length;
  }
  const first = new Uint8Array(size);
  let offset = 0;
  for (const chunk of head) {
    first.set(chunk, offset);
    offset += chunk.length;
  }
  const replay = new ReadableStream<Uint8Array>({
    start(controller) {
      if (first.length > 0) controller.enqueue(first);
    },
    async pull(controller) {
      const { done, value } = await reader.read();
      if (done) controller.close();
      else controller.enqueue(value);
    },
    cancel: (reason) => reader.cancel(reason),
  });
  return { first, replay };
}

const fieldError = (field: string, message: string, code?: string) =>
  new ValidationError([{ path: `form.${field}`, message, ...(code ? { code } : {}) }]);

/**
 * Streams the upload's parts: small text fields, an optional cover image, and the audio `file`,
 * which goes straight into storage at the track's source key (recognised by its first bytes;
 * 415 otherwise; 413 past `maxBytes`). On any error the caller deletes `uploaded` keys.
 */
export async function readUpload(
  body: ReadableStream<Uint8Array>,
  boundary: string,
  options: { trackId: string; storage: ObjectStorage; maxBytes: number; uploaded: string[] },
): Promise<UploadForm> {
  const form: UploadForm = {
    title: undefined,
    albumId: undefined,
    visibility: undefined,
    cover: undefined,
    source: undefined,
  };
  for await (const part of parseMultipartStream(body, boundary, { maxParts: 8 })) {
    switch (part.name) {
      case "title":
      case "albumId":
      case "visibility": {
        const text = await readLimited(part, 1024, () => fieldError(part.name, "is too long"));
        form[part.name] = new TextDecoder().decode(text);
        break;
      }
      case "cover": {
        const bytes = await readLimited(
          part,
          IMAGE_MAX_BYTES,
          () => new PayloadTooLargeError(IMAGE_MAX_BYTES),
        );
        const kind = sniffImage(bytes);
        if (!kind)
          throw new UnsupportedMediaTypeError("The cover must be a PNG, JPEG or WebP image.");
        form.cover = { bytes, ...kind };
        break;
      }
      case "file": {
        if (form.source) throw fieldError("file", "send one file", "duplicate");
        const { first, replay } = await peek(part.body, AUDIO_SNIFF_BYTES);
        if (first.length === 0) throw fieldError("file", "is empty", "empty_file");
        const format = sniffAudio(first);
        if (!format) {
          await replay.cancel().catch(() => {});
          throw new UnsupportedMediaTypeError(notAudioMessage(first));
        }
        const fileName = sanitizeFileName(part.filename ?? `upload.${format}`);
        const key = trackKeys(options.trackId).source(fileName);
        options.uploaded.push(key);
        try {
          await options.storage.putStream(key, replay, {
            contentType: AUDIO_CONTENT_TYPES[format],
            maxBytes: options.maxBytes,
          });
        } catch (error) {
          if (error instanceof ObjectTooLargeError)
            throw new PayloadTooLargeError(options.maxBytes);
          throw error;
        }
        form.source = { key, fileName };
        break;
      }
      default:
        // The name is the client's: echoed only as safe characters (no markup, controls, bidi).
        throw new MalformedRequestError(
          `Unknown multipart field "${part.name.slice(0, 40).replace(/[^\w.-]/g, "?")}".`,
        );
    }
  }
  return form;
}
