import { ValidationFailed } from '@twofold/domain';
import { QueryParameters } from './parsed-input';

describe('QueryParameters (CONTRACT §4: parameter names in any case)', () => {
  it('reads a parameter by its name in any case', () => {
    const query = QueryParameters.of({ EventDate: '2026-05-01', LIMIT: '10' });
    expect(query.get('eventDate')).toBe('2026-05-01');
    expect(query.single('eventdate')).toBe('2026-05-01');
    expect(query.page()).toEqual({ offset: 0, limit: 10 });
  });

  it('gathers a parameter repeated in any spellings, and refuses it where it is meant once', () => {
    const query = QueryParameters.of({ action: ['Create', 'Update'], ACTION: 'Delete', identity: ['a', 'b'] });
    expect(query.all('Action')).toEqual(['Create', 'Update', 'Delete']);
    expect(() => query.single('identity')).toThrow(new ValidationFailed('identity must be given once.'));
    expect(() => QueryParameters.of({ offset: '1', Offset: '2' }).page()).toThrow(new ValidationFailed('offset must be given once.'));
  });

  it('reads an absent parameter as undefined and no list', () => {
    const query = QueryParameters.of({});
    expect(query.single('identity')).toBeUndefined();
    expect(query.all('action')).toEqual([]);
    expect(QueryParameters.of(undefined).get('identity')).toBeUndefined();
  });
});
