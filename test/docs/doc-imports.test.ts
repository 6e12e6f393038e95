// The docs show only what the package exports: every name imported from `websift…` in a fenced code
// block of README.md or docs/*.md is exported by that entry point (types included), every such entry
// point is in package.json's exports, and no example imports websift's own sources by relative path.

import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '..', '..');
const docFiles = [
  'README.md',
  ...readdirSync(join(root, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];

/** package.json exports: 'websift/http' → src/http/index.ts. */
function entryPoints(): Map<string, string> {
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
    exports: Record<string, string | { default?: string; import?: string }>;
  };
  const map = new Map<string, string>();
  for (const [subpath, target] of Object.entries(pkg.exports)) {
    // './package.json' is a file, not a module of the API.
    if (typeof target === 'string') continue;
    const built = target.default ?? target.import!;
    map.set(`websift${subpath.slice(1)}`, join(root, built.replace(/^\.\/dist\//, 'src/').replace(/\.js$/, '.ts')));
  }
  return map;
}

interface ShownImport {
  file: string;
  line: number;
  specifier: string;
  names: string[];
  /** `import x from` / `import * as x from`: the example relies on a default or namespace import. */
  whole?: string;
}

/** Import declarations and `const { a } = require('…')` in every fenced code block of `file`. */
function importsShown(file: string): ShownImport[] {
  const text = readFileSync(join(root, file), 'utf8');
  const found: ShownImport[] = [];
  for (const block of text.matchAll(/^(```+|~~~+)[^\n]*\n([\s\S]*?)^\1/gm)) {
    const startLine = text.slice(0, block.index).split('\n').length + 1;
    const source = ts.createSourceFile('block.ts', block[2]!, ts.ScriptTarget.Latest, true);
    const lineOf = (node: ts.Node) => startLine + source.getLineAndCharacterOfPosition(node.getStart()).line;
    const visit = (node: ts.Node): void => {
      if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
        const clause = node.importClause;
        const names: string[] = [];
        let whole: string | undefined;
        if (clause?.name) whole = 'default';
        if (clause?.namedBindings && ts.isNamedImports(clause.namedBindings)) {
          for (const el of clause.namedBindings.elements) names.push((el.propertyName ?? el.name).text);
        }
        found.push({ file, line: lineOf(node), specifier: node.moduleSpecifier.text, names, ...(whole ? { whole } : {}) });
      } else if (
        ts.isVariableDeclaration(node) &&
        node.initializer &&
        ts.isCallExpression(node.initializer) &&
        ts.isIdentifier(node.initializer.expression) &&
        node.initializer.expression.text === 'require' &&
        node.initializer.arguments[0] &&
        ts.isStringLiteral(node.initializer.arguments[0])
      ) {
        const names = ts.isObjectBindingPattern(node.name)
          ? node.name.elements.map((el) => ((el.propertyName ?? el.name) as ts.Identifier).text)
          : [];
        found.push({ file, line: lineOf(node), specifier: node.initializer.arguments[0].text, names });
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return found;
}

/**
 * Every name (value or type) each entry point exports, through the compiler. Only websift's own
 * sources are read: packages they import (and the default libs) are left unresolved, as what a module
 * exports is decided by its export declarations (src re-exports nothing from a package). Loading them
 * made this ~8x the CPU and under the shared machine's load ran past the test timeout.
 */
function exportsOf(entries: Map<string, string>): Map<string, Set<string>> {
  const options: ts.CompilerOptions = {
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2022,
    noLib: true,
    types: [],
    noEmit: true,
  };
  const host = ts.createCompilerHost(options);
  host.resolveModuleNameLiterals = (literals, containing, _redirected, opts) =>
    literals.map((literal) => {
      const resolved = ts.resolveModuleName(literal.text, containing, opts, host);
      return resolved.resolvedModule?.isExternalLibraryImport ? { resolvedModule: undefined } : resolved;
    });
  const program = ts.createProgram([...entries.values()], options, host);
  const checker = program.getTypeChecker();
  const out = new Map<string, Set<string>>();
  for (const [name, file] of entries) {
    const symbol = checker.getSymbolAtLocation(program.getSourceFile(file)!)!;
    out.set(name, new Set(checker.getExportsOfModule(symbol).map((s) => s.name)));
  }
  return out;
}

/** A relative specifier that names one of websift's own modules (`./render/index.js`, `../src/…`). */
function namesOwnSource(specifier: string): boolean {
  if (!specifier.startsWith('.')) return /(^|\/)src\//.test(specifier);
  if (/(^|\/)src\//.test(specifier)) return true;
  const bare = specifier.replace(/^(\.\.?\/)+/, '').replace(/\.[cm]?js$/, '');
  return ['.ts', '/index.ts'].some((ext) => existsSync(join(root, 'src', bare + ext)));
}

describe('imports shown in the docs', () => {
  const shown = docFiles.flatMap(importsShown);
  const entries = entryPoints();

  it('finds the examples (the parser sees the fenced blocks)', () => {
    expect(shown.filter((i) => i.specifier === 'websift').length).toBeGreaterThan(2);
    expect(shown.some((i) => i.specifier === 'websift/http')).toBe(true);
  });

  it('every websift entry point shown exists, and exports every name imported from it', () => {
    const exported = exportsOf(entries);
    const problems: string[] = [];
    for (const imp of shown.filter((i) => i.specifier === 'websift' || i.specifier.startsWith('websift/'))) {
      const names = exported.get(imp.specifier);
      const where = `${imp.file}:${imp.line}`;
      if (!names) problems.push(`${where}: '${imp.specifier}' is not an entry point of the package (package.json exports)`);
      else {
        if (imp.whole === 'default' && !names.has('default')) problems.push(`${where}: '${imp.specifier}' has no default export`);
        for (const name of imp.names.filter((n) => !names.has(n))) problems.push(`${where}: '${imp.specifier}' does not export ${name}`);
      }
    }
    expect(problems).toEqual([]);
  }, 60_000); // a correctness check: the generous budget only catches a hang on the loaded machine

  it("no example imports websift's own source files by a relative or src/ path", () => {
    const bad = shown.filter((i) => namesOwnSource(i.specifier)).map((i) => `${i.file}:${i.line}: import from '${i.specifier}'`);
    expect(bad).toEqual([]);
  });
});
