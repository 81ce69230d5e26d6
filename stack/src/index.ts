export {
  type DevWorker,
  type DevWorkerOptions,
  stackWorkerVars,
  startDevWorker,
  startStackWorker,
  workerProcessId,
  writeEnvFile,
} from "./dev-worker.ts";
export { type Infra, type InfraInfo, type InfraOptions, startInfra } from "./infra.ts";
export { type LogFn, lineSplitter, logTail, silent } from "./log.ts";
export { freePort, waitForPort } from "./ports.ts";
export { type ManagedProcess, startProcess } from "./process.ts";
export { type RedisClusterHandle, startRedisCluster } from "./redis-cluster.ts";
export type { Restartable } from "./restartable.ts";
export type { S3Config } from "./s3.ts";
export { startStackInfra } from "./stack-infra.ts";
export {
  OAUTH_PROVIDERS,
  OAUTH_TEST_CLIENTS,
  type OAuthClient,
  type OAuthProvider,
  type StandInsHandle,
  type StandInsOptions,
  startStandIns,
} from "./stand-ins/index.ts";
export { standInOAuthVars } from "./stand-ins/oauth/clients.ts";
export { stackTranscoderVars, startTranscoderProcess } from "./transcoder-process.ts";
export { WRANGLER_OFFLINE_ENV } from "./worker-bundle.ts";
