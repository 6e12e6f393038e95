// An editor hover must say what an export does: every function, class and constant exported by an
// entry point of the package has a doc comment, and so has every member of the interfaces a user fills
// in or calls (the *Options interfaces, Engine). Walked with the TypeScript compiler over the sources
// each package.json export is built from.

import { readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '..', '..');

function entryPoints(): Map<string, string> {
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
    exports: Record<string, string | { default?: string; import?: string }>;
  };
  return new Map(
    // './package.json' (a string target) is a file, not a module of the API.
    Object.entries(pkg.exports).flatMap(([subpath, target]) =>
      typeof target === 'string'
        ? []
        : [
            [
              `websift${subpath.slice(1)}`,
              join(root, (target.default ?? target.import!).replace(/^\.\/dist\//, 'src/').replace(/\.js$/, '.ts')),
            ] as const,
          ],
    ),
  );
}

const program = (files: string[]) =>
  ts.createProgram(files, {
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2022,
    skipLibCheck: true,
    noEmit: true,
  });

/** Interfaces whose every member must be documented: options a user writes, and the engine a user calls. */
const documentedMembers = (name: string) => /Options$/.test(name) || name === 'Engine';

function undocumented(): string[] {
  const entries = entryPoints();
  const prog = program([...entries.values()]);
  const checker = prog.getTypeChecker();
  const missing = new Set<string>();
  const where = (decl: ts.Declaration) => {
    const file = decl.getSourceFile();
    return `${relative(root, file.fileName)}:${file.getLineAndCharacterOfPosition(decl.getStart()).line + 1}`;
  };
  const hasDoc = (symbol: ts.Symbol) => symbol.getDocumentationComment(checker).some((part) => part.text.trim() !== '');

  const checkMembers = (label: string, type: ts.Type, depth = 0): void => {
    for (const member of checker.getPropertiesOfType(type)) {
      const decl = member.declarations?.[0];
      if (!decl || decl.getSourceFile().fileName.includes('node_modules')) continue;
      if (!hasDoc(member)) missing.add(`${label}.${member.name} (${where(decl)})`);
      // Engine.admin: its methods too.
      if (depth === 0 && label === 'Engine' && member.name === 'admin') {
        checkMembers(`${label}.admin`, checker.getTypeOfSymbolAtLocation(member, decl), 1);
      }
    }
  };

  for (const [entry, file] of entries) {
    const moduleSymbol = checker.getSymbolAtLocation(prog.getSourceFile(file)!)!;
    for (const exported of checker.getExportsOfModule(moduleSymbol)) {
      const symbol = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
      const decl = symbol.declarations?.[0];
      if (!decl) continue;
      const label = `${entry}: ${exported.name}`;
      const callable = symbol.flags & (ts.SymbolFlags.Function | ts.SymbolFlags.Class | ts.SymbolFlags.Variable);
      if (callable && !hasDoc(symbol)) missing.add(`${label} (${where(decl)})`);
      if (symbol.flags & ts.SymbolFlags.Interface && documentedMembers(exported.name)) {
        checkMembers(exported.name, checker.getDeclaredTypeOfSymbol(symbol));
      }
    }
  }
  return [...missing].sort();
}

describe('doc comments on the public API', () => {
  it('every exported function, class and constant, and every member of the Options interfaces and Engine, has one', () => {
    expect(undocumented()).toEqual([]);
  }, 30_000);
});
