import { describe, expect, it } from 'vitest';
import { NameTable } from '../../src/convert/name-table.js';

// A NameTable must answer exactly what the slice it stands in for answers, whatever it holds.
describe('NameTable', () => {
  const page = '<DIV Class=x data-Long-Attribute-Name-Here=1 ÄRGER svg:Path aria-labelledby>';
  const ranges: [number, number][] = [];
  for (let start = 0; start < page.length; start++)
    for (let end = start; end <= Math.min(page.length, start + 40); end++) ranges.push([start, end]);

  it('reads tag names lower-cased, as slice + toLowerCase', () => {
    const table = new NameTable(true);
    for (let round = 0; round < 2; round++)
      for (const [s, e] of ranges) expect(table.read(page, s, e)).toBe(page.slice(s, e).toLowerCase());
  });

  it('reads attribute names as written, as slice', () => {
    const table = new NameTable(false);
    for (let round = 0; round < 2; round++) for (const [s, e] of ranges) expect(table.read(page, s, e)).toBe(page.slice(s, e));
  });

  it('tells names apart that differ only in case (as written) and agrees on them lower-cased', () => {
    const asWritten = new NameTable(false);
    const lower = new NameTable(true);
    const text = 'Class class CLASS';
    expect([asWritten.read(text, 0, 5), asWritten.read(text, 6, 11), asWritten.read(text, 12, 17)]).toEqual(['Class', 'class', 'CLASS']);
    expect([lower.read(text, 0, 5), lower.read(text, 6, 11), lower.read(text, 12, 17)]).toEqual(['class', 'class', 'class']);
  });

  it('stays right past its capacity (it starts over) and for names that share slots', () => {
    const table = new NameTable(true);
    const names = Array.from({ length: 5000 }, (_, i) => `N${i.toString(36)}x${(i * 7919).toString(36)}`);
    const text = names.join(' ');
    for (let round = 0; round < 3; round++) {
      let at = 0;
      for (const name of names) {
        expect(table.read(text, at, at + name.length)).toBe(name.toLowerCase());
        at += name.length + 1;
      }
    }
  });
});
