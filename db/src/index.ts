export {
  type CreateDbOptions,
  createDb,
  type Database,
  type DbHandle,
  type Schema,
  type Transaction,
} from "./client";
export {
  FOREIGN_KEY_VIOLATION,
  isConnectionLost,
  pgConstraint,
  pgErrorCode,
  UNIQUE_VIOLATION,
} from "./errors";
export * from "./schema";
