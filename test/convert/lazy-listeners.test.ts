import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import * as linkedom from 'linkedom';
import { describe, expect, it } from 'vitest';
import { htmlToMarkdown } from '../../src/convert/html-to-markdown.js';
import { AUDITED_EVENT_TARGET, eventTargetHash, lazyListenersApplied } from '../../src/convert/lazy-listeners.js';

// linkedom's CommonJS build is a module instance of its own: stock linkedom, untouched by the change.
const stock = createRequire(import.meta.url)('linkedom') as typeof linkedom;
const page = `<html><body>${'<div><p>Some text <b>here</b></p></div>'.repeat(100)}</body></html>`;

function countWeakMapSets(parse: () => void): number {
  const original = WeakMap.prototype.set;
  let sets = 0;
  WeakMap.prototype.set = function (this: WeakMap<object, unknown>, key: object, value: unknown) {
    sets++;
    return original.call(this, key, value);
  };
  try {
    parse();
  } finally {
    WeakMap.prototype.set = original;
  }
  return sets;
}

/** Listeners on two nested elements, fired, removed, once, stopImmediatePropagation: the calls seen. */
function listenerTrace(lib: typeof linkedom): string[] {
  const { document } = lib.parseHTML('<html><body><div id="o"><p id="i">t</p></div></body></html>');
  const outer = document.getElementById('o')!;
  const inner = document.getElementById('i')!;
  const trace: string[] = [];
  const log = (name: string) => (e: Event) =>
    trace.push(`${name}:${(e.currentTarget as Element).id}<${(e.target as Element).id}:${e.eventPhase}`);
  const a = log('a');
  inner.addEventListener('x', a);
  inner.addEventListener('x', { handleEvent: log('obj') } as EventListenerObject);
  inner.addEventListener('x', log('once'), { once: true });
  outer.addEventListener('x', log('outer'));
  const fire = (bubbles: boolean) => trace.push(`ret:${inner.dispatchEvent(new lib.Event('x', { bubbles }) as unknown as Event)}`);
  fire(true);
  fire(false);
  inner.removeEventListener('x', a);
  inner.removeEventListener('never-added', a);
  fire(true);
  inner.addEventListener('x', (e: Event) => {
    trace.push('stop');
    e.stopImmediatePropagation();
  });
  inner.addEventListener('x', log('after-stop'));
  fire(true);
  trace.push(`plain:${document.body.dispatchEvent(new lib.Event('y') as unknown as Event)}`);
  const button = document.createElement('button');
  (button as unknown as { onclick: unknown }).onclick = () => trace.push('onclick');
  (button as HTMLElement).click();
  return trace;
}

describe('lazy listener maps on linkedom nodes (lazy-listeners.ts)', () => {
  it('applies to the installed linkedom, whose EventTarget is the audited one', () => {
    htmlToMarkdown('<p>x</p>'); // loads the conversion pipeline, which applies the change
    expect(eventTargetHash(linkedom.EventTarget)).toBe(AUDITED_EVENT_TARGET);
    expect(lazyListenersApplied()).toBe(true);
  });

  it('builds no listener Map per node while parsing, where stock linkedom builds one per node', () => {
    htmlToMarkdown('<p>x</p>');
    const patched = countWeakMapSets(() => linkedom.parseHTML(page));
    const original = countWeakMapSets(() => stock.parseHTML(page));
    expect(original).toBeGreaterThanOrEqual(500); // 100 × (div, p, text, b, text)
    expect(patched).toBeLessThan(10);
  });

  it('keeps every listener behaviour of stock linkedom: bubbling, once, remove, stop, handleEvent, on*', () => {
    htmlToMarkdown('<p>x</p>');
    const seen = listenerTrace(linkedom);
    expect(seen).toEqual(listenerTrace(stock));
    expect(seen).toContain('outer:o<i:3');
    expect(seen).toContain('onclick');
    expect(seen.filter((s) => s.startsWith('once:'))).toHaveLength(1);
  });

  it('leaves a different EventTarget alone (hash of its source)', () => {
    class Other {
      addEventListener() {}
    }
    expect(eventTargetHash(Other)).not.toBe(AUDITED_EVENT_TARGET);
  });

  it('ships the upstream fix as a patch that applies to the installed linkedom', () => {
    const dir = mkdtempSync(join(tmpdir(), 'websift-linkedom-patch-'));
    try {
      const root = resolve(createRequire(import.meta.url).resolve('linkedom'), '../..');
      for (const build of ['esm', 'cjs'])
        cpSync(
          join(root, build, 'interface', 'event-target.js'),
          join(dir, 'node_modules', 'linkedom', build, 'interface', 'event-target.js'),
        );
      execFileSync('git', ['apply', '--check', resolve('patches/linkedom+0.18.14.patch')], { cwd: dir });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
