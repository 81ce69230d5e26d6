import type { InfraInfo } from "./infra.ts";

declare module "vitest" {
  interface ProvidedContext {
    infra: InfraInfo;
    /** A migrated database on the test Postgres for the application's suites. */
    appDatabaseUrl: string;
    /** That database through the pooler (the direct URL when there is none): the Worker's. */
    appPooledDatabaseUrl: string;
  }
}
