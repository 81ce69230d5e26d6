// `./run bench [name ...]`: runs the benchmark scripts in bench/ (`<name>.bench.ts`) one after
// another, each in its own process so one's warm caches and sockets cannot flatter the next.
// A benchmark prints its own figures; this runner only adds a header and the exit status.
import { spawn } from "node:child_process";
import { readdir } from "node:fs/promises";
import { fileURLToPath } from "node:url";

const here = fileURLToPath(new URL(".", import.meta.url));
const available = (await readdir(here))
  .filter((file) => file.endsWith(".bench.ts"))
  .map((file) => file.slice(0, -".bench.ts".length))
  .sort();
const wanted = process.argv.slice(2);
const unknown = wanted.filter((name) => !available.includes(name));
if (unknown.length > 0) {
  console.error(`unknown benchmark(s): ${unknown.join(", ")}; available: ${available.join(", ")}`);
  process.exit(2);
}

let failed = 0;
for (const name of wanted.length > 0 ? wanted : available) {
  console.log(`\n== ${name} ==`);
  const code = await new Promise<number | null>((done) => {
    const child = spawn(process.execPath, ["--import", "tsx", `${here}${name}.bench.ts`], {
      stdio: "inherit",
    });
    child.on("exit", done);
  });
  if (code !== 0) {
    failed++;
    console.error(`${name} failed (exit ${code})`);
  }
}
process.exit(failed > 0 ? 1 : 0);
