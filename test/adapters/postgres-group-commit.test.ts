// Group commit (src/adapters/postgres/group-commit.ts), without a database: one statement in flight per
// key, the calls that waited go together in the next, keys do not wait for each other, a statement's
// failure fails its calls only, an Error in a result rejects that call only, and `max` bounds a statement.

import { describe, expect, it } from 'vitest';
import { GroupCommit } from '../../src/adapters/postgres/group-commit.js';

/** A flush whose statements the test answers by hand. */
function manual() {
  const sent: { key: string; items: number[]; answer: (r: (number | Error)[]) => void; fail: (e: unknown) => void }[] = [];
  const group = new GroupCommit<number, number>(
    (key, items) =>
      new Promise((answer, fail) => {
        sent.push({ key, items, answer, fail });
      }),
    3,
  );
  return { group, sent };
}
/** Until after the lane's next send (it runs in a setImmediate queued by the answer's callback). */
const turn = async () => {
  for (let i = 0; i < 2; i++) await new Promise((r) => setImmediate(r));
};

describe('GroupCommit', () => {
  it('sends an idle key at once; calls arriving meanwhile wait and go together in the next statement', async () => {
    const { group, sent } = manual();
    const first = group.submit('acme', 1);
    expect(sent.map((s) => s.items)).toEqual([[1]]);
    const later = [group.submit('acme', 2), group.submit('acme', 3)];
    expect(sent).toHaveLength(1); // one in flight per key
    sent[0]!.answer([10]);
    expect(await first).toBe(10);
    await turn();
    expect(sent.map((s) => s.items)).toEqual([[1], [2, 3]]);
    sent[1]!.answer([20, 30]);
    expect(await Promise.all(later)).toEqual([20, 30]);
  });

  it('a caller answered by one statement can join the next (it leaves after the answers have run on)', async () => {
    const { group, sent } = manual();
    const chain = group.submit('acme', 1).then(() => group.submit('acme', 11));
    group.submit('acme', 2);
    sent[0]!.answer([1]);
    await turn();
    expect(sent.map((s) => s.items)).toEqual([[1], [2, 11]]);
    sent[1]!.answer([2, 11]);
    expect(await chain).toBe(11);
  });

  it('keys do not wait for each other', () => {
    const { group, sent } = manual();
    group.submit('a', 1);
    group.submit('b', 2);
    expect(sent.map((s) => [s.key, s.items])).toEqual([
      ['a', [1]],
      ['b', [2]],
    ]);
  });

  it("a failed statement rejects its calls, not the next statement's; an Error in a result rejects that call only", async () => {
    const { group, sent } = manual();
    const first = group.submit('acme', 1);
    const second = [group.submit('acme', 2), group.submit('acme', 3)];
    sent[0]!.fail(new Error('cut'));
    await expect(first).rejects.toThrow('cut');
    await turn();
    sent[1]!.answer([new Error('duplicate'), 30]);
    await expect(second[0]).rejects.toThrow('duplicate');
    expect(await second[1]).toBe(30);
  });

  it('a statement carries at most `max` calls; the rest go in the next one', async () => {
    const { group, sent } = manual();
    group.submit('acme', 0);
    for (let i = 1; i <= 5; i++) group.submit('acme', i);
    sent[0]!.answer([0]);
    await turn();
    sent[1]!.answer([1, 2, 3]);
    await turn();
    expect(sent.map((s) => s.items)).toEqual([[0], [1, 2, 3], [4, 5]]);
  });
});
