import { plural } from './plural';

describe('plural', () => {
  const minutesRu = { one: 'минуту', few: 'минуты', many: 'минут', other: 'минуты' };
  it.each([
    [1, 'минуту'],
    [2, 'минуты'],
    [4, 'минуты'],
    [5, 'минут'],
    [11, 'минут'],
    [12, 'минут'],
    [14, 'минут'],
    [15, 'минут'],
    [21, 'минуту'],
    [22, 'минуты'],
    [111, 'минут'],
  ])('ru %i %s', (count, form) => {
    expect(plural('ru', count, minutesRu)).toBe(form);
  });

  it('en: one and other', () => {
    const minutes = { one: 'minute', other: 'minutes' };
    expect([1, 2, 0, 21].map((n) => plural('en', n, minutes))).toEqual(['minute', 'minutes', 'minutes', 'minutes']);
  });
});
