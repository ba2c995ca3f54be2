import { NotFound } from './domain-error';
import { parseRecordId } from './record-id';

describe('parseRecordId: a record named by a request', () => {
  it('reads a UUID in any case as its lower-case spelling', () => {
    expect(parseRecordId('3F2E1D0C-9B8A-4C7D-8E6F-5A4B3C2D1E0F', 'User')).toBe('3f2e1d0c-9b8a-4c7d-8e6f-5a4b3c2d1e0f');
  });

  it('answers anything else, or nothing, as the record not found', () => {
    for (const raw of ['not-a-uuid', '', ' 3f2e1d0c-9b8a-4c7d-8e6f-5a4b3c2d1e0f', '3f2e1d0c9b8a4c7d8e6f5a4b3c2d1e0f', undefined]) {
      expect(() => parseRecordId(raw, 'Group')).toThrow(new NotFound('Group'));
    }
  });
});
