import type { InfraInfo } from "./infra.ts";
import type { StackBase } from "./stack-infra.ts";

declare module "vitest" {
  interface ProvidedContext {
    infra: InfraInfo;
    /** A migrated database on the test Postgres for the application's suites. */
    appDatabaseUrl: string;
    /** That database through the pooler (the direct URL when there is none): the Worker's. */
    appPooledDatabaseUrl: string;
    /**
     * What the client's and e2e files' stacks take from the run: a migrated database on the run's
     * Postgres that they copy theirs from, and the run's S3 store for their buckets (instead of a
     * server and a store of their own each); absent when no such file runs.
     */
    stackBase: StackBase | undefined;
  }
}
