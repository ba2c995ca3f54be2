import { cutText } from './text';

describe('cutText', () => {
  it('keeps text within the bound as it is', () => {
    expect(cutText('abc', 5)).toBe('abc');
    expect(cutText('abcdef', 3)).toBe('abc');
  });

  it('never cuts an astral character in two', () => {
    expect(cutText('a😀b', 2)).toBe('a');
    expect(cutText('a😀b', 3)).toBe('a😀');
    expect(cutText('😀'.repeat(200), 254)).toBe('😀'.repeat(127));
    expect(cutText('😀'.repeat(200), 253)).toBe('😀'.repeat(126));
  });
});
