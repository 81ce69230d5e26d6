// What s3rver leaves out of S3's multipart protocol, added in front of its routes so that the
// local store answers as S3 and R2 do: AbortMultipartUpload, NoSuchUpload for an unknown or
// finished upload, and CompleteMultipartUpload's checks of the parts (InvalidPart for a part not
// uploaded or a wrong ETag, InvalidPartOrder, EntityTooSmall for a part under 5 MiB but the last).
import { readFile, rm, stat } from "node:fs/promises";
import { join } from "node:path";
import { Readable } from "node:stream";

const MIN_PART_BYTES = 5 * 1024 * 1024;

interface KoaContext {
  method: string;
  path: string;
  query: Record<string, string | string[] | undefined>;
  req: NodeJS.ReadableStream;
  status: number;
  body: unknown;
  type: string;
}

const s3Error = (ctx: KoaContext, status: number, code: string, message: string) => {
  ctx.status = status;
  ctx.type = "application/xml";
  ctx.body = `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>${message}</Message></Error>`;
};

async function readBody(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(chunks).toString("utf8");
}

/** Koa middleware for s3rver's filesystem store rooted at `directory` (path-style requests). */
export function multipartCompletion(directory: string) {
  // s3rver keeps an upload's parts in <directory>/<bucket>/._S3rver_uploads/<uploadId>/<n>.
  const uploadDir = (bucket: string, uploadId: string) =>
    join(directory, bucket, "._S3rver_uploads", uploadId);

  return async (ctx: KoaContext, next: () => Promise<unknown>) => {
    const uploadId = ctx.query.uploadId;
    if (typeof uploadId !== "string" || !/^[0-9a-f]+$/.test(uploadId)) return next();
    const bucket = ctx.path.split("/")[1] ?? "";
    const dir = uploadDir(decodeURIComponent(bucket), uploadId);
    const exists = await stat(dir).then(
      () => true,
      () => false,
    );
    if (!exists) {
      return s3Error(ctx, 404, "NoSuchUpload", "The specified upload does not exist.");
    }
    if (ctx.method === "DELETE") {
      await rm(dir, { recursive: true, force: true });
      ctx.status = 204;
      ctx.body = null;
      return;
    }
    if (ctx.method !== "POST") return next();
    const xml = await readBody(ctx.req);
    const parts = [...xml.matchAll(/<Part>([\s\S]*?)<\/Part>/g)].map((m) => ({
      number: Number(/<PartNumber>(\d+)<\/PartNumber>/.exec(m[1] ?? "")?.[1]),
      etag: (/<ETag>([^<]*)<\/ETag>/.exec(m[1] ?? "")?.[1] ?? "")
        .replace(/&quot;/g, '"')
        .replace(/"/g, ""),
    }));
    for (const [i, part] of parts.entries()) {
      if (i > 0 && part.number <= (parts[i - 1]?.number ?? 0)) {
        return s3Error(
          ctx,
          400,
          "InvalidPartOrder",
          "The list of parts was not in ascending order.",
        );
      }
      const md5 = await readFile(join(dir, `${part.number}.md5`), "utf8").catch(() => null);
      if (md5 === null || md5 !== part.etag) {
        return s3Error(
          ctx,
          400,
          "InvalidPart",
          "One or more of the specified parts could not be found or its ETag did not match.",
        );
      }
      const size = (await stat(join(dir, String(part.number)))).size;
      if (i < parts.length - 1 && size < MIN_PART_BYTES) {
        return s3Error(ctx, 400, "EntityTooSmall", "A part but the last is smaller than 5 MiB.");
      }
    }
    // s3rver reads the body itself: hand it the same bytes again.
    ctx.req = Readable.from([Buffer.from(xml)]);
    return next();
  };
}
