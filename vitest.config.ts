import { defineConfig } from "vitest/config";
import { BaseSequencer, type TestSpecification } from "vitest/node";

/**
 * vitest's own order (by group, then project by name, larger files first), with two projects moved
 * to the front of their group:
 * - the fault files (project `stress`) before the end-to-end files: a fault file mostly waits
 *   (backoffs, lock expiry, the reconciler's passes) while an end-to-end file keeps a browser and a
 *   stack busy. Started last, as their name would have it, they ran alone at the end of the run and
 *   left the cores idle for their last half minute.
 * - the Worker's files before the other projects of group 0: started last, they began only once
 *   the transcoder's longest file had run nearly alone, and their pool then took about 9 s to start
 *   its workerd runners. First, the run took 207.7 and 213.0 s of vitest against 216.2 and 222.8 s
 *   (`./run bench suite`, side by side on one machine).
 */
class FrontLoaded extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    // vitest then splits the list by group, keeping this order within each.
    const first = ["stress", "worker"];
    const rank = (spec: TestSpecification) => {
      const at = first.indexOf(spec.project.name);
      return at === -1 ? first.length : at;
    };
    // A stable sort: within a rank, vitest's order stays.
    return sorted.sort((a, b) => rank(a) - rank(b));
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
    sequence: { sequencer: FrontLoaded },
    reporters: ["default"],
    // Logs of passing tests are noise (expected warnings of failure paths); failing ones keep theirs.
    silent: "passed-only",
  },
});
