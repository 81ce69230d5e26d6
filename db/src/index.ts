export {
  type CreateDbOptions,
  type CreateHttpDbOptions,
  createDb,
  createHttpDb,
  type Database,
  type DbHandle,
  type HttpDatabase,
  type Queryable,
  type Schema,
  type Transaction,
} from "./client";
export {
  FOREIGN_KEY_VIOLATION,
  isConnectionLost,
  pgConstraint,
  pgErrorCode,
  pgErrorDetail,
  UNIQUE_VIOLATION,
} from "./errors";
export * from "./schema";
export { allFound, qualified, uuids } from "./sql";
