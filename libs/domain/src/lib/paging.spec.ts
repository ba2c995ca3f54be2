import { parsePage } from './paging';
import { ValidationFailed } from './domain-error';

describe('parsePage', () => {
  it('defaults to offset 0 and limit 100', () => {
    expect(parsePage(undefined, undefined)).toEqual({ offset: 0, limit: 100 });
  });

  it('accepts integers up to the maximum', () => {
    expect(parsePage('20', '1000')).toEqual({ offset: 20, limit: 1000 });
  });

  it.each([
    ['-1', undefined],
    ['1.5', undefined],
    ['abc', undefined],
    [undefined, '-5'],
    [undefined, '1001'],
    [undefined, '2e3'],
    [['1', '2'], undefined],
  ])('refuses offset=%p limit=%p', (offset, limit) => {
    expect(() => parsePage(offset, limit)).toThrow(ValidationFailed);
  });
});
