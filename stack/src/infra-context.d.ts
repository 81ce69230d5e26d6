import type { InfraInfo } from "./infra.ts";
import type { DatabaseTemplate } from "./stack-infra.ts";

declare module "vitest" {
  interface ProvidedContext {
    infra: InfraInfo;
    /** A migrated database on the test Postgres for the application's suites. */
    appDatabaseUrl: string;
    /** That database through the pooler (the direct URL when there is none): the Worker's. */
    appPooledDatabaseUrl: string;
    /**
     * A migrated database that the client's and e2e files' stacks copy theirs from (on the run's
     * Postgres, instead of a server of their own each); absent when no such file runs.
     */
    stackDatabaseTemplate: DatabaseTemplate | undefined;
  }
}
