import { batchesOfRows } from './user-merges.repository';

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
