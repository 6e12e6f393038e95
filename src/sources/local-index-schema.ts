// Tables of the local index and the checks a document passes before it is stored. Table names are
// prefixed `index_` so the index can live in the engine's own database file.

import type { IndexDocument } from './extracted-docs.js';

export const INDEX_SCHEMA = `
CREATE TABLE IF NOT EXISTS index_documents (
  id    INTEGER PRIMARY KEY,
  url   TEXT NOT NULL UNIQUE,
  title TEXT NOT NULL,
  text  TEXT NOT NULL
);
CREATE VIRTUAL TABLE IF NOT EXISTS index_fts USING fts5(
  title, text,
  content = 'index_documents', content_rowid = 'id',
  tokenize = 'porter unicode61 remove_diacritics 2'
);
CREATE TRIGGER IF NOT EXISTS index_documents_ai AFTER INSERT ON index_documents BEGIN
  INSERT INTO index_fts (rowid, title, text) VALUES (new.id, new.title, new.text);
END;
CREATE TRIGGER IF NOT EXISTS index_documents_ad AFTER DELETE ON index_documents BEGIN
  INSERT INTO index_fts (index_fts, rowid, title, text) VALUES ('delete', old.id, old.title, old.text);
END;
CREATE TRIGGER IF NOT EXISTS index_documents_au AFTER UPDATE ON index_documents BEGIN
  INSERT INTO index_fts (index_fts, rowid, title, text) VALUES ('delete', old.id, old.title, old.text);
  INSERT INTO index_fts (rowid, title, text) VALUES (new.id, new.title, new.text);
END;
`;

/** Same cap as an extracted page: a document is text of at most 10 MiB. */
const MAX_TEXT_CHARS = 10 * 1024 * 1024;

/**
 * Validates one document and returns it in stored form: the URL WHATWG-serialised without its fragment
 * (the upsert key, so `https://a.test/x#top` and `https://a.test/x` are one document), title defaulting
 * to the URL.
 */
export function normaliseDocument(doc: unknown, index: number): IndexDocument {
  const where = `localIndex: document ${index}`;
  if (typeof doc !== 'object' || doc === null) throw new TypeError(`${where} must be an object with url, title and text`);
  const { url, title, text } = doc as Record<string, unknown>;
  if (typeof url !== 'string') throw new TypeError(`${where}: url must be a string`);
  let parsed: URL;
  try {
    parsed = new URL(url.trim());
  } catch {
    throw new TypeError(`${where}: url is not an absolute URL: ${url}`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new TypeError(`${where}: url must be http(s): ${url}`);
  parsed.hash = '';
  if (title !== undefined && typeof title !== 'string') throw new TypeError(`${where}: title must be a string`);
  if (typeof text !== 'string') throw new TypeError(`${where}: text must be a string`);
  if (text.length > MAX_TEXT_CHARS) throw new RangeError(`${where}: text is longer than ${MAX_TEXT_CHARS} characters`);
  const cleanTitle = (title ?? '').replace(/\s+/g, ' ').trim();
  return { url: parsed.href, title: cleanTitle || parsed.href, text };
}
