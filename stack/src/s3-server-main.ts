// Runs the S3-compatible dev/test store (s3rver, objects on the filesystem) as its own process.
// Started by stack/src/s3.ts with --openssl-legacy-provider (s3rver's ListObjectsV2 pagination
// tokens use a legacy cipher).
import S3rver from "s3rver";

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

await server.run();
console.log(`listening on http://127.0.0.1:${port} (bucket ${bucket})`);

const stop = async () => {
  await server.close();
  process.exit(0);
};
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
