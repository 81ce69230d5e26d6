import http from "node:http";
import { connect } from "node:net";
import {
  GetObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
} from "@aws-sdk/client-s3";
import pg from "pg";
import { describe, expect, inject, it } from "vitest";
import WebSocket from "ws";

const infra = inject("infra");

describe("the test infrastructure", () => {
  it("serves Postgres 17", async () => {
    const client = new pg.Client({ connectionString: infra.databaseUrl });
    await client.connect();
    const { rows } = await client.query<{ server_version_num: string }>("show server_version_num");
    await client.end();
    expect(Number(rows[0]?.server_version_num)).toBeGreaterThanOrEqual(170000);
  });

  it("serves Redis", async () => {
    const url = new URL(infra.redisUrl);
    const reply = await new Promise<string>((resolve, reject) => {
      const socket = connect({ host: url.hostname, port: Number(url.port) }, () =>
        socket.write("PING\r\n"),
      );
      socket.once("data", (data) => {
        socket.destroy();
        resolve(data.toString());
      });
      socket.once("error", reject);
    });
    expect(reply).toBe("+PONG\r\n");
  });

  it("serves S3 with paginated listing", async () => {
    const s3 = new S3Client({
      endpoint: infra.s3.endpoint,
      region: infra.s3.region,
      forcePathStyle: true,
      credentials: { accessKeyId: infra.s3.accessKeyId, secretAccessKey: infra.s3.secretAccessKey },
      requestChecksumCalculation: "WHEN_REQUIRED",
      responseChecksumValidation: "WHEN_REQUIRED",
    });
    const prefix = `infra-test-${crypto.randomUUID()}/`;
    for (const name of ["a", "b", "c"]) {
      await s3.send(
        new PutObjectCommand({ Bucket: infra.s3.bucket, Key: `${prefix}${name}`, Body: name }),
      );
    }
    const got = await s3.send(new GetObjectCommand({ Bucket: infra.s3.bucket, Key: `${prefix}b` }));
    expect(await got.Body?.transformToString()).toBe("b");
    const first = await s3.send(
      new ListObjectsV2Command({ Bucket: infra.s3.bucket, Prefix: prefix, MaxKeys: 2 }),
    );
    expect(first.Contents?.map((o) => o.Key)).toEqual([`${prefix}a`, `${prefix}b`]);
    const second = await s3.send(
      new ListObjectsV2Command({
        Bucket: infra.s3.bucket,
        Prefix: prefix,
        ContinuationToken: first.NextContinuationToken,
      }),
    );
    expect(second.Contents?.map((o) => o.Key)).toEqual([`${prefix}c`]);
  });

  it("keeps an idle S3 connection open past Node's 5-s default, as object stores do", async () => {
    // A client that sends on a connection the server is closing gets "socket hang up".
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const get = () =>
      new Promise<boolean>((resolve, reject) => {
        const request = http.get(`${infra.s3.endpoint}/${infra.s3.bucket}`, { agent }, (res) => {
          res.resume();
          res.on("end", () => resolve(request.reusedSocket));
        });
        request.on("error", reject);
      });
    try {
      expect(await get()).toBe(false);
      await new Promise((r) => setTimeout(r, 6_000));
      expect(await get()).toBe(true);
    } finally {
      agent.destroy();
    }
  }, 15_000);
});

describe("the Neon WebSocket bridge", () => {
  it("refuses targets other than the configured Postgres", async () => {
    const ws = new WebSocket(`${infra.neonWsProxy}?address=127.0.0.1:22`);
    const code = await new Promise<number>((resolve) => ws.on("close", (c) => resolve(c)));
    expect(code).toBe(1008);
  });

  it.each([
    ["Postgres", infra.databaseUrl],
    ["the pooler", infra.pooledDatabaseUrl],
  ])("carries the Postgres wire protocol to %s", async (_name, url) => {
    const target = new URL(url);
    const ws = new WebSocket(`${infra.neonWsProxy}?address=${target.hostname}:${target.port}`);
    await new Promise((resolve, reject) => {
      ws.once("open", resolve);
      ws.once("error", reject);
    });
    // SSLRequest: length 8, code 80877103. Postgres answers with one byte, 'N' (no TLS here).
    const request = Buffer.alloc(8);
    request.writeInt32BE(8, 0);
    request.writeInt32BE(80877103, 4);
    const answer = new Promise<Buffer>((resolve) =>
      ws.once("message", (data) => resolve(data as Buffer)),
    );
    ws.send(request);
    expect((await answer).toString()).toBe("N");
    ws.close();
  });
});

describe("the pooler (PgBouncer, transaction mode, as Neon's pooled endpoint)", () => {
  /** The server backend of a new client connection to `url`. */
  async function backendOf(url: string): Promise<number> {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    const { rows } = await client.query<{ pid: number }>("select pg_backend_pid() as pid");
    await client.end();
    return Number(rows[0]?.pid);
  }

  it("reaches the same database on a port of its own", async () => {
    const pooled = new URL(infra.pooledDatabaseUrl);
    const direct = new URL(infra.databaseUrl);
    expect(pooled.port).not.toBe(direct.port);
    expect(pooled.pathname).toBe(direct.pathname);
    const client = new pg.Client({ connectionString: infra.pooledDatabaseUrl });
    await client.connect();
    const { rows } = await client.query<{ db: string }>("select current_database() as db");
    await client.end();
    expect(rows[0]?.db).toBe(direct.pathname.slice(1));
  });

  it("keeps server backends between client connections, where Postgres starts one each", async () => {
    const pooled = [await backendOf(infra.pooledDatabaseUrl)];
    pooled.push(await backendOf(infra.pooledDatabaseUrl));
    expect(pooled[1]).toBe(pooled[0]);
    const direct = [await backendOf(infra.databaseUrl)];
    direct.push(await backendOf(infra.databaseUrl));
    expect(direct[1]).not.toBe(direct[0]);
  });
});
