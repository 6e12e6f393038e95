// Migration 4: planner settings of the functions that join a batch with the reservations table, or look
// in it for pending holds or old rows. PL/pgSQL caches a plan per statement per connection, and a generic plan made while
// the table was small (a fresh schema, a warm-up) is kept for the connection's life: nothing replans it
// until ANALYZE changes the table's statistics, and with autovacuum off (or between its runs) that may
// be never. settle_many's batch join was so planned as a hash join over a sequential scan of the whole
// trace of finished ids: its cost grew with every row written, to 2.5 ms per statement and a hot
// organization's throughput falling round after round (issue 33). release_holds (pending holds) and
// prune (finished ids past retention, old claims: none for the first hour, so a scan read it all every
// heartbeat) had the same trap. The only plan that suits every size of these tables is the index one (a
// batch is at most 256 ids; pending holds are few; a prune chunk is 1,000 rows), so these functions run
// with sequential scans, hash and merge joins off: the planner has no other way. (A
// CREATE OR REPLACE of one of them must restate these settings: it resets them.)

const off = 'SET enable_seqscan = off SET enable_hashjoin = off SET enable_mergejoin = off';

export function planSettings(s: string): string {
  return `
    ALTER FUNCTION ${s}.settle_many(text[], text, boolean[], bigint[], boolean[], bigint) ${off};
    ALTER FUNCTION ${s}.release_holds(text, uuid) ${off};
    ALTER FUNCTION ${s}.prune(bigint, bigint, integer) ${off};`;
}
