// websift/postgres's published declarations must compile for a consumer without @types/pg (pg is an
// optional peer dependency, typed structurally): emit them, then typecheck a consumer in a directory
// with no node_modules at all, where an import of 'pg' could not resolve.

import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { afterAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'websift-pg-types-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const base: ts.CompilerOptions = {
  strict: true,
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  target: ts.ScriptTarget.ES2022,
  lib: ['lib.es2023.d.ts', 'lib.dom.d.ts'],
  skipLibCheck: false,
};

const messages = (diagnostics: readonly ts.Diagnostic[]) => diagnostics.map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));

describe('websift/postgres declarations', () => {
  it('compile for a consumer without @types/pg, and never import pg', () => {
    const emit = ts
      .createProgram([join(root, 'src/postgres/index.ts')], {
        ...base,
        declaration: true,
        emitDeclarationOnly: true,
        rootDir: join(root, 'src'),
        outDir: join(dir, 'dist'),
        exactOptionalPropertyTypes: true,
        noUncheckedIndexedAccess: true,
        verbatimModuleSyntax: true,
        skipLibCheck: true,
      })
      .emit();
    expect(messages(emit.diagnostics)).toEqual([]);
    const declarations = ['postgres', 'adapters/postgres'].flatMap((sub) =>
      readdirSync(join(dir, 'dist', sub)).map((f) => readFileSync(join(dir, 'dist', sub, f), 'utf8')),
    );
    expect(declarations.length).toBeGreaterThan(3);
    for (const text of declarations) expect(text).not.toMatch(/from ['"]pg['"]|import\(['"]pg['"]\)/);

    writeFileSync(
      join(dir, 'consumer.ts'),
      `
      import { openPostgres, postgresLedger, postgresKeyStore, type PostgresPool } from './dist/postgres/index.js';
      declare const pool: PostgresPool;
      const db = openPostgres({ pool, schema: 'books' });
      const ledger = postgresLedger(db);
      void ledger.reserve({ id: 'r', organization: 'acme', amount: 1 }, 0).then((o) => o.ok);
      void postgresKeyStore(db).close();
      void postgresLedger({ connectionString: 'postgres://db/websift', poolConfig: { max: 4 } }).instance.length;
    `,
    );
    const consumer = ts.createProgram([join(dir, 'consumer.ts')], { ...base, noEmit: true, types: [], typeRoots: [] });
    expect(messages(ts.getPreEmitDiagnostics(consumer))).toEqual([]);
  }, 60_000);
});
