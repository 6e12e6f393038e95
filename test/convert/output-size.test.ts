// The converters do not amplify (issue 32): short table rows are padded only while the padding is no
// longer than the table's text, JSON is indented 8 levels deep. Ordinary documents come out as before.

import { describe, expect, it } from 'vitest';
import { documentToMarkdown } from '../../src/convert/document-to-markdown.js';
import { htmlToMarkdown } from '../../src/convert/html-to-markdown.js';

const convert = (mimeType: string, text: string) => documentToMarkdown({ mimeType, text, finalUrl: 'https://example.test/' });

describe('output size', () => {
  it('an HTML table of 2,000 columns and 2,000 one-cell rows stays small (8 MB before)', () => {
    const page = `<table><tr>${'<th>a</th>'.repeat(2000)}</tr>${'<tr><td>x</td></tr>'.repeat(2000)}</table>`;
    const md = htmlToMarkdown(page);
    expect(md.length).toBeLessThan(page.length);
    const lines = md.split('\n');
    expect(lines[1]).toBe('|' + ' --- |'.repeat(2000));
    expect(lines.slice(2)).toEqual(Array(2000).fill('| x |'));
  });

  it('an ordinary table keeps its short rows padded', () => {
    const page =
      '<table><tr><th>Name</th><th>Size</th><th>Kind</th></tr><tr><td colspan="3">Section</td></tr><tr><td>a</td><td>1</td><td>b</td></tr></table>';
    expect(htmlToMarkdown(page)).toBe('| Name | Size | Kind |\n| --- | --- | --- |\n| Section | | |\n| a | 1 | b |');
    expect(convert('text/csv', 'a,b,c\nx\n1,2,3\n')).toBe('| a | b | c |\n| --- | --- | --- |\n| x |  |  |\n| 1 | 2 | 3 |');
  });

  it('a CSV whose padding would outgrow its text keeps its short rows as written', () => {
    const md = convert('text/csv', `${Array(2000).fill('a').join(',')}\n${'x\n'.repeat(2000)}`);
    expect(md.length).toBe(8_003 + 12_001 + 2000 * 6 - 1); // header, rule, 2,000 rows of '| x |' (12 MB padded)
    expect(md.split('\n')[2]).toBe('| x |');
  });

  it('JSON up to 8 levels deep is written as JSON.stringify(…, null, 2) writes it; deeper levels compactly', () => {
    const shallow = '{"a":[1,{"b":null,"c":"x"}],"d":{},"e":[],"f":{"g":{"h":{"i":{"j":{"k":[true]}}}}}}';
    expect(convert('application/json', shallow)).toBe('```json\n' + JSON.stringify(JSON.parse(shallow), null, 2) + '\n```');
    const deep = '{"a":['.repeat(2000) + '1' + ']}'.repeat(2000); // 32 MB indented at every level
    const md = convert('application/json', deep);
    expect(md.length).toBeLessThan(deep.length + 200);
    expect(Math.max(...md.split('\n').map((l) => /^ */.exec(l)![0].length))).toBe(16);
  });
});
