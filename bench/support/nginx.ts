// nginx as a benchmark's yardstick: Debian's binary serving a folder from disk, run as a child
// process (master + workers in a process group of their own) with a generated configuration, so
// nothing of the system's nginx (its config, logs, pid file, service) is used or touched.
import { access, chmod, constants, mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { freePort, startProcess, waitForPort } from "@edge-music/stack";

/** Where Debian's packages (nginx-light, nginx-core, nginx) put it. */
export const NGINX = "/usr/sbin/nginx";

export const NGINX_MISSING = `no nginx at ${NGINX}: install Debian's (apt-get install -y nginx-light, or nginx) to compare with it`;

export async function nginxInstalled(): Promise<boolean> {
  return access(NGINX, constants.X_OK).then(
    () => true,
    () => false,
  );
}

export interface Nginx {
  url: string;
  /** The master process: the workers are its children. */
  pid: number;
  stop(): Promise<void>;
}

/**
 * Serves `dir/www` on 127.0.0.1 with immutable cache headers, like the Worker's segments; `dir`
 * also holds the config, the pid file and the temp folders.
 */
export async function startNginx(dir: string, workers: number | "auto" = 1): Promise<Nginx> {
  const port = await freePort();
  const asRoot = process.getuid?.() === 0;
  // Run as root, the master drops its workers to www-data (Debian's default), which must be
  // able to reach the files: a mkdtemp folder is 0700.
  if (asRoot) await chmod(dir, 0o755);
  await mkdir(join(dir, "temp"), { recursive: true });
  const temp = (name: string) => `${name}_temp_path ${join(dir, "temp", name)};`;
  const config = `${[
    ...(asRoot ? ["user www-data;"] : []),
    "daemon off;",
    "master_process on;",
    `worker_processes ${workers};`,
    "error_log stderr warn;",
    `pid ${join(dir, "nginx.pid")};`,
    "events { worker_connections 1024; }",
    "http {",
    "  access_log off;",
    "  sendfile on;",
    "  tcp_nopush on;",
    "  types { audio/mp4 m4s mp4; application/vnd.apple.mpegurl m3u8; }",
    "  default_type application/octet-stream;",
    ...["client_body", "proxy", "fastcgi", "uwsgi", "scgi"].map((name) => `  ${temp(name)}`),
    "  server {",
    `    listen 127.0.0.1:${port};`,
    `    root ${join(dir, "www")};`,
    '    location / { add_header Cache-Control "public, max-age=31536000, immutable"; }',
    "  }",
    "}",
  ].join("\n")}\n`;
  const configFile = join(dir, "nginx.conf");
  await writeFile(configFile, config);

  const output: string[] = [];
  const proc = startProcess(NGINX, ["-p", `${dir}/`, "-e", "stderr", "-c", configFile], {
    // Kept for the error message of a failed start: nginx says why.
    log: (line) => {
      if (output.push(line) > 40) output.shift();
    },
  });
  try {
    await Promise.race([
      waitForPort(port),
      proc.exited.then((code) => {
        throw new Error(`nginx exited (code ${code})`);
      }),
    ]);
  } catch (error) {
    await proc.stop();
    throw new Error(`nginx did not start: ${(error as Error).message}\n${output.join("\n")}`);
  }
  return { url: `http://127.0.0.1:${port}`, pid: proc.child.pid ?? 0, stop: () => proc.stop() };
}
