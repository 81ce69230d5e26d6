// Runs the S3-compatible dev/test store (s3rver, objects on the filesystem) as its own process.
// Started by stack/src/s3.ts with --openssl-legacy-provider (s3rver's ListObjectsV2 pagination
// tokens use a legacy cipher). Multipart uploads get the parts of the protocol s3rver lacks
// (s3-multipart.ts).
import type { Server } from "node:http";
import S3rver from "s3rver";
import { multipartCompletion } from "./s3-multipart.ts";

const [port, directory, bucket] = process.argv.slice(2);
if (!port || !directory || !bucket) {
  console.error("usage: s3-server-main <port> <directory> <bucket>");
  process.exit(2);
}

const server = new S3rver({
  port: Number(port),
  address: "127.0.0.1",
  directory,
  silent: true,
  configureBuckets: [{ name: bucket, configs: [] }],
});

// In front of its router (the last middleware), after its authentication.
const middleware = (server as unknown as { middleware: unknown[] }).middleware;
middleware.splice(middleware.length - 1, 0, multipartCompletion(directory));

await server.run();
// Node closes an idle keep-alive connection after 5 s by default, a moment a client may pick to
// send its next request on it ("socket hang up": a conversion's upload after 5 s of ffmpeg once
// failed an attempt so). Object stores keep idle connections far longer; as the Neon bridge
// (neon-bridge.ts), idle connections stay open until the client closes them.
const http = (server as unknown as { httpServer: Server }).httpServer;
http.keepAliveTimeout = 0;
console.log(`listening on http://127.0.0.1:${port} (bucket ${bucket})`);

const stop = async () => {
  const closing = server.close();
  // Kept-alive connections would hold the close until their clients leave.
  http.closeAllConnections();
  await closing;
  process.exit(0);
};
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
