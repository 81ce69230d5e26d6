import { defineConfig } from "vitest/config";
import { BaseSequencer, type TestSpecification } from "vitest/node";

/**
 * vitest's own order (by group, then project by name, larger files first), except that the fault
 * files run before the end-to-end files of their group. A fault file mostly waits (backoffs, lock
 * expiry, the reconciler's passes) while an end-to-end file keeps a browser and a stack busy:
 * started last, as their name would have it, the fault files ran alone at the end of the run and
 * left the cores idle for their last half minute.
 */
class WaitingFilesFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    // vitest then splits the list by group, keeping this order within each.
    const waits = (spec: TestSpecification) => spec.project.name === "stress";
    return [...sorted.filter(waits), ...sorted.filter((spec) => !waits(spec))];
  }
}

export default defineConfig({
  test: {
    globalSetup: ["./stack/src/vitest-global-setup.ts"],
    projects: [
      "client",
      "contracts",
      "db",
      "e2e",
      "scripts/release",
      "stack",
      "stress",
      "transcoder",
      "web",
      "worker",
    ],
    // Three files at a time on two cores (vitest's default here is one): most files mostly wait on
    // workerd start-up, Postgres, Redis or ffmpeg, so the cores would otherwise idle. The e2e and
    // stress projects run after these, five at a time (their own group, see their configs).
    maxWorkers: 3,
    sequence: { sequencer: WaitingFilesFirst },
    reporters: ["default"],
    // Logs of passing tests are noise (expected warnings of failure paths); failing ones keep theirs.
    silent: "passed-only",
  },
});
