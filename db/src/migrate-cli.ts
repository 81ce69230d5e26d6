import { migrate } from "./migrate";

const databaseUrl = process.env.DATABASE_URL;
if (!databaseUrl) {
  console.error("migrate: DATABASE_URL is not set (postgres://user:password@host:5432/db)");
  process.exit(1);
}

// Host and database only: the URL carries the password.
const target = describe(databaseUrl);
try {
  await migrate(databaseUrl);
  console.log(`migrate: ${target} is up to date`);
} catch (err) {
  console.error(`migrate: failed on ${target}:`, err instanceof Error ? err.message : err);
  if (err instanceof Error && err.cause) console.error(err.cause);
  process.exit(1);
}

function describe(url: string): string {
  try {
    const { host, pathname } = new URL(url);
    return `${host}${pathname}`;
  } catch {
    return "the database";
  }
}
