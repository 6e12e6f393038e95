// Which storage a `database` / `redis` string names: createEngine and the CLI decide it the same way.

/** A `database` starting with postgres:// or postgresql:// selects PostgreSQL; anything else is a SQLite file. */
export function isPostgresUrl(database: string): boolean {
  return /^postgres(?:ql)?:\/\//i.test(database);
}

export function isRedisUrl(url: string): boolean {
  return /^rediss?:\/\//i.test(url);
}
