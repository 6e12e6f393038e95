// localIndex: a SearchSource over the user's own documents in SQLite FTS5. It may share the engine's
// database file, so it keeps to its own tables (index_documents, index_fts) and runs in WAL mode.
// Writes never hold the lock for long nor wait for it synchronously: a bulk add commits in chunks and
// pauses between them, so the engine's ledger (in this process or another) gets the lock in between.

import { performance } from 'node:perf_hooks';
import Database from 'better-sqlite3';
import { BUSY_TIMEOUT_MS, DEFAULT_LOCK_WAIT_MS, withLockWait } from '../adapters/sqlite/lock-wait.js';
import { systemClock } from '../adapters/system-clock.js';
import type { Clock, ExtractResponse, SearchQuery, SearchSource, SourceAnswer, SourceContext, SourceResult } from '../types/index.js';
import { documentsFromExtract, type IndexDocument } from './extracted-docs.js';
import { toFtsPlan } from './fts-query.js';
import { checkContext } from './http.js';
import { INDEX_SCHEMA, normaliseDocument } from './local-index-schema.js';
import { parseSite, urlFilter } from './operators.js';

/**
 * An open better-sqlite3 `Database`, typed by the few members every one has, so these declarations
 * compile for consumers without @types/better-sqlite3 (a devDependency here).
 */
export interface BetterSqlite3Database {
  prepare(source: string): unknown;
  exec(source: string): unknown;
  close(): unknown;
  readonly open: boolean;
}

/** Options of `localIndex`. */
export interface LocalIndexOptions {
  /** A file path, ':memory:', or an open better-sqlite3 database (left open by close()). */
  database: string | BetterSqlite3Database;
  /** Source id; default 'local'. */
  id?: string;
  /** Weight of a title match relative to a body match in bm25 ranking; default 10. */
  titleWeight?: number;
  /** How long a write waits, in ms, for a lock another connection holds before it rejects; default 5,000. */
  lockWaitMs?: number;
  /** Paces those waits (default: the system clock). */
  clock?: Clock;
}

/** A SearchSource over your own documents, with methods to fill it. */
export interface LocalIndex extends SearchSource {
  /** Adds or replaces (by URL) documents; resolves to how many were written. */
  add(docs: IndexDocument | IndexDocument[]): Promise<number>;
  /** Indexes each successful result of `engine.extract` output; resolves to how many were written. */
  addExtracted(response: ExtractResponse): Promise<number>;
  /** Resolves true when a document with that URL was removed. */
  remove(url: string): Promise<boolean>;
  /** How many documents the index holds. */
  count(): Promise<number>;
  /** Closes the database it opened (a Database passed in is left open). */
  close(): Promise<void>;
}

const SNIPPET_TOKENS = 32;
/** A bulk add commits at most this many documents, or this many ms of writing, per transaction… */
const CHUNK_DOCS = 500;
const CHUNK_MS = 50;
/** …and leaves the lock free this long between chunks (real time: another process's waiter must see it). */
const CHUNK_PAUSE_MS = 10;
const LEAD_CHARS = 240;

/**
 * A full-text index of your own documents in SQLite FTS5 (bm25 ranking, `site:`/`filetype:`/phrases/`-word`
 * operators), usable as a search source. It may share the engine's database file (its own tables, WAL
 * mode). Every empty answer is an explicit "no results". Writes wait up to `lockWaitMs` for a lock
 * another connection holds, then reject.
 *
 * @throws {TypeError} at creation without a valid `database`.
 * @throws {RangeError} at creation for a `titleWeight` or `lockWaitMs` out of range.
 * @example
 * ```ts
 * const index = localIndex({ database: './websift.db' });
 * await index.add({ url: 'https://docs.example/start', title: 'Getting started', text: '…' });
 * const engine = createEngine({ database: './websift.db', sources: [index] });
 * ```
 */
export function localIndex(options: LocalIndexOptions): LocalIndex {
  if (!options || (typeof options.database !== 'string' && !(options.database instanceof Database))) {
    throw new TypeError("localIndex: `database` must be a file path, ':memory:' or a better-sqlite3 Database");
  }
  const titleWeight = options.titleWeight ?? 10;
  if (!(Number.isFinite(titleWeight) && titleWeight > 0)) throw new RangeError('localIndex: titleWeight must be a positive number');
  const owned = typeof options.database === 'string';
  const db = owned ? new Database(options.database as string) : (options.database as unknown as Database.Database);
  const clock = options.clock ?? systemClock;
  const lockWaitMs = options.lockWaitMs ?? DEFAULT_LOCK_WAIT_MS;
  if (!(Number.isFinite(lockWaitMs) && lockWaitMs >= 0)) throw new RangeError('localIndex: lockWaitMs must be a non-negative number');
  // Opening may wait for the lock synchronously (once, like the engine's open); afterwards SQLite's own
  // busy wait, which blocks the event loop, is a couple of ms and lockWait() retries from the event loop.
  // A database passed in keeps its own setting (the retries cover it too).
  if (owned) db.pragma('busy_timeout = 5000');
  if (owned && options.database !== ':memory:') db.pragma('journal_mode = WAL');
  db.exec(INDEX_SCHEMA);
  if (owned) db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
  // Operator filters run inside the query, before LIMIT, with the same matching code as every adapter.
  db.function('websift_url_ok', { deterministic: true }, (url: unknown, filter: unknown) =>
    typeof url === 'string' && typeof filter === 'string' && compiledFilter(filter)(url) ? 1 : 0,
  );

  const upsert = db.prepare(
    `INSERT INTO index_documents (url, title, text) VALUES (@url, @title, @text)
     ON CONFLICT(url) DO UPDATE SET title = excluded.title, text = excluded.text`,
  );
  /** Writes docs[from…] until a chunk is full; returns where the next chunk starts. */
  const writeChunk = db.transaction((docs: IndexDocument[], from: number) => {
    const start = performance.now();
    let i = from;
    while (i < docs.length && i - from < CHUNK_DOCS && performance.now() - start < CHUNK_MS) upsert.run(docs[i++]!);
    return i;
  });
  const lockWait = <T>(attempt: () => T) =>
    withLockWait(
      attempt,
      clock,
      lockWaitMs,
      (cause) => new Error(`localIndex: the database stayed locked for ${lockWaitMs} ms`, { cause }),
    );
  const addMany = async (docs: IndexDocument[]): Promise<number> => {
    for (let done = 0; done < docs.length; ) {
      if (done > 0) await new Promise((resolve) => setTimeout(resolve, CHUNK_PAUSE_MS));
      const from = done;
      done = await lockWait(() => writeChunk.immediate(docs, from));
    }
    return docs.length;
  };
  const del = db.prepare('DELETE FROM index_documents WHERE url = ?');
  const countStmt = db.prepare('SELECT count(*) AS n FROM index_documents');
  // Ranked and limited on the FTS table alone, then joined: the top rows only are looked up in
  // index_documents and given a snippet (the outer MATCH on their rowids is snippet()'s full-text
  // context). Joining the documents before ranking cost a B-tree lookup per match: 1.2–2.5× bare FTS5
  // (docs/benchmarks.md). A URL is read per match only when an operator filter needs it.
  const ranked = db.prepare(
    `SELECT d.url, d.title, snippet(index_fts, 1, '', '', '…', ${SNIPPET_TOKENS}) AS snippet, d.text
       FROM (SELECT rowid AS id, bm25(index_fts, @titleWeight, 1.0) AS score FROM index_fts
              WHERE index_fts MATCH @match
                AND (@filter IS NULL OR websift_url_ok((SELECT url FROM index_documents WHERE id = index_fts.rowid), @filter))
                AND (@exclude IS NULL OR rowid NOT IN (SELECT rowid FROM index_fts WHERE index_fts MATCH @exclude))
              ORDER BY score, id
              LIMIT @limit) top
       JOIN index_fts ON index_fts.rowid = top.id
       JOIN index_documents d ON d.id = top.id
      WHERE index_fts MATCH @match
      ORDER BY top.score, top.id`,
  );
  const unranked = db.prepare(
    `SELECT d.url, d.title, '' AS snippet, d.text FROM index_documents d
      WHERE (@filter IS NULL OR websift_url_ok(d.url, @filter))
        AND (@exclude IS NULL OR d.id NOT IN (SELECT rowid FROM index_fts WHERE index_fts MATCH @exclude))
      ORDER BY d.id
      LIMIT @limit`,
  );
  let closed = false;
  const open = () => {
    if (closed) throw new Error('localIndex: the index is closed');
  };

  return {
    id: options.id ?? 'local',
    async search(query: SearchQuery, ctx: SourceContext): Promise<SourceAnswer> {
      const limit = checkContext('localIndex', ctx);
      open();
      const plan = toFtsPlan(query);
      // Nothing to look for (no words, no operators: `"` alone) lists nothing rather than the whole index.
      const hasOperators = query.sites.length + query.excludedSites.length + query.filetypes.length > 0;
      if (plan.unmatchable || unsatisfiable(query) || (plan.match === null && plan.exclude === null && !hasOperators)) {
        return { results: [], noResultsNotice: true };
      }
      const params = {
        // No operators, no per-row URL check.
        filter: hasOperators
          ? JSON.stringify({ sites: query.sites, excludedSites: query.excludedSites, filetypes: query.filetypes })
          : null,
        exclude: plan.exclude,
        limit,
      };
      const rows = (plan.match === null ? unranked.all(params) : ranked.all({ ...params, match: plan.match, titleWeight })) as {
        url: string;
        title: string;
        snippet: string;
        text: string;
      }[];
      ctx.signal.throwIfAborted();
      const results: SourceResult[] = rows.map((r) => ({
        title: r.title,
        url: r.url,
        snippet: r.snippet.replace(/\s+/g, ' ').trim() || lead(r.text),
      }));
      // The index holds every document it can answer from, so an empty answer is a definite "no results".
      return results.length > 0 ? { results } : { results: [], noResultsNotice: true };
    },
    async add(docs) {
      open();
      const list = (Array.isArray(docs) ? docs : [docs]).map((d, i) => normaliseDocument(d, i));
      return addMany(list);
    },
    async addExtracted(response) {
      open();
      const list = documentsFromExtract(response).map((d, i) => normaliseDocument(d, i));
      return addMany(list);
    },
    async remove(url) {
      open();
      const key = normaliseDocument({ url, title: '', text: '' }, 0).url;
      return lockWait(() => del.run(key).changes > 0);
    },
    async count() {
      open();
      return (countStmt.get() as { n: number }).n;
    },
    async close() {
      if (closed) return;
      closed = true;
      if (owned) db.close();
    },
  };
}

let lastFilter: { json: string; test: (url: string) => boolean } | undefined;

/** Compiles the per-query filter once, not once per row. */
function compiledFilter(json: string): (url: string) => boolean {
  if (lastFilter?.json !== json) {
    const f = JSON.parse(json) as Pick<SearchQuery, 'sites' | 'excludedSites' | 'filetypes'>;
    lastFilter = { json, test: urlFilter(f, { sites: true, filetypes: true }) };
  }
  return lastFilter.test;
}

/** Operators no stored URL can satisfy (an empty `site:` host) need no query. */
function unsatisfiable(query: SearchQuery): boolean {
  return query.sites.length > 0 && query.sites.every((s) => parseSite(s).host === '');
}

/** A snippet for a row matched on operators alone, or on its title only: the text's opening words. */
function lead(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat.length <= LEAD_CHARS) return flat;
  const cut = flat.slice(0, LEAD_CHARS);
  const space = cut.lastIndexOf(' ');
  return `${space > LEAD_CHARS / 2 ? cut.slice(0, space) : cut}…`;
}
