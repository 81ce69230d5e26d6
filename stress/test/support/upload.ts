import { readFile } from "node:fs/promises";
import { basename } from "node:path";
import type { Session } from "@edge-music/e2e/api";

/**
 * POST /tracks as a streamed multipart body: the first half of the file is sent, `midway` runs
 * (say, Redis is stopped) while the Worker is reading the upload, then the rest follows.
 * Returns the raw response: the caller judges its status and body.
 */
export async function uploadWithPause(
  apiUrl: string,
  session: Session,
  path: string,
  title: string,
  midway: () => Promise<void>,
): Promise<Response> {
  const file = await readFile(path);
  const boundary = `stress-${crypto.randomUUID()}`;
  const encoder = new TextEncoder();
  const head = encoder.encode(
    [
      `--${boundary}`,
      'Content-Disposition: form-data; name="title"',
      "",
      title,
      `--${boundary}`,
      `Content-Disposition: form-data; name="file"; filename="${basename(path)}"`,
      "Content-Type: audio/mpeg",
      "",
      "",
    ].join("\r\n"),
  );
  const tail = encoder.encode(`\r\n--${boundary}--\r\n`);
  const half = Math.floor(file.length / 2);
  let step = 0;
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      step++;
      if (step === 1) controller.enqueue(head);
      else if (step === 2) controller.enqueue(file.subarray(0, half));
      else if (step === 3) {
        await midway();
        controller.enqueue(file.subarray(half));
      } else {
        controller.enqueue(tail);
        controller.close();
      }
    },
  });
  return await fetch(`${apiUrl}/api/v1/tracks`, {
    method: "POST",
    headers: {
      cookie: session.cookie,
      "content-type": `multipart/form-data; boundary=${boundary}`,
      "content-length": String(head.length + file.length + tail.length),
    },
    body,
    duplex: "half",
  } as RequestInit);
}
