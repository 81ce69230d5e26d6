import type { InfraInfo } from "./infra.ts";

declare module "vitest" {
  interface ProvidedContext {
    infra: InfraInfo;
  }
}
