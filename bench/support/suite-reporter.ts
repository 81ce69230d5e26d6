// A vitest reporter for bench/suite.bench.ts: one JSON line per test file as it starts and ends
// (seconds since the run began, its project, its path, its own duration), appended to the file
// named by SUITE_TIMELINE. It prints nothing; the default reporter still runs beside it.
import { appendFileSync } from "node:fs";
import { relative } from "node:path";
import type { Reporter, TestModule } from "vitest/node";

const out = process.env.SUITE_TIMELINE;
const began = performance.now();

function line(event: "start" | "end", module: TestModule, extra: object = {}): void {
  if (!out) return;
  const at = (performance.now() - began) / 1000;
  const file = relative(module.project.config.root, module.moduleId);
  appendFileSync(
    out,
    `${JSON.stringify({ event, at, project: module.project.name, file, ...extra })}\n`,
  );
}

export default class SuiteTimeline implements Reporter {
  onTestModuleStart(module: TestModule): void {
    line("start", module);
  }

  onTestModuleEnd(module: TestModule): void {
    line("end", module, { seconds: module.diagnostic().duration / 1000 });
  }
}
