import { batchesOfRows, chunks, stepsBySurvivor } from './user-merges.repository';

describe('batchesOfRows (the identity-format apply moves history in statements of bounded rows)', () => {
  const rows = new Map([
    ['a', 3],
    ['b', 4],
    ['c', 0],
    ['d', 9],
    ['e', 12],
    ['f', 1],
  ]);
  const of = (item: string) => rows.get(item) ?? 0;

  it('fills each batch up to the limit, in order, and leaves out items without rows', () => {
    expect(batchesOfRows(['a', 'b', 'c', 'd', 'f'], of, 10)).toEqual([
      ['a', 'b'],
      ['d', 'f'],
    ]);
  });

  it('gives an item of more rows than the limit a batch of its own, never split', () => {
    expect(batchesOfRows(['a', 'e', 'f'], of, 10)).toEqual([['a'], ['e'], ['f']]);
  });

  it('gives nothing for nothing to move', () => {
    expect(batchesOfRows(['c'], of, 10)).toEqual([]);
    expect(batchesOfRows([], of, 10)).toEqual([]);
  });
});

describe('stepsBySurvivor and chunks (the apply changes users in statements of bounded users)', () => {
  const step = (merged: string, survivor: string, rank = 1) => ({ merged, survivor, rank });

  it("keeps one survivor's merged users in one batch, and starts a new batch before one would pass the size", () => {
    const steps = [step('a1', 'a'), step('a2', 'a', 2), step('b1', 'b'), step('c1', 'c'), step('c2', 'c', 2), step('c3', 'c', 3)];
    expect(stepsBySurvivor(steps, 3).map((batch) => batch.map((s) => s.merged))).toEqual([
      ['a1', 'a2', 'b1'],
      ['c1', 'c2', 'c3'],
    ]);
    expect(stepsBySurvivor(steps, 2).map((batch) => batch.map((s) => s.merged))).toEqual([['a1', 'a2'], ['b1'], ['c1', 'c2', 'c3']]);
    expect(stepsBySurvivor([], 2)).toEqual([]);
  });

  it('cuts a list into slices of the size, in order', () => {
    expect(chunks([1, 2, 3, 4, 5], 2)).toEqual([[1, 2], [3, 4], [5]]);
    expect(chunks([], 2)).toEqual([]);
  });
});
