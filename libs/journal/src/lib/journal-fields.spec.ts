import { asAccountId } from '@twofold/domain';
import { journalDetails } from './journal-details';
import { JOURNAL_FIELD_NAMES, JournalField, JournalFields } from './journal-events';
import { JournalWriter } from './journal-writer';

/**
 * additionalFields take registered keys only (JOURNAL_FIELD_NAMES). The calls below are type-checked by
 * ts-jest when the suite runs: should an unregistered key compile, `@ts-expect-error` itself becomes the
 * error and this file fails. They never run.
 */
describe('journal fields', () => {
  it('does not compile an unregistered key, in the details of a request or in an event recorded by hand', () => {
    const calls = (writer: JournalWriter) => {
      journalDetails.add({ UserId: 'u', [JournalField.userIdentity]: 'jane' });
      // @ts-expect-error: a key nobody registered
      journalDetails.add({ UserID: 'u' });
      // @ts-expect-error: a key nobody registered
      const recorded: JournalFields = { Secret: 'x' };
      void writer.record(asAccountId('a'), { object: 'User', action: 'Create', subject: 's', success: true, additionalFields: recorded });
    };
    expect(calls).toBeInstanceOf(Function);
  });

  it('names each key once', () => {
    expect(new Set(JOURNAL_FIELD_NAMES).size).toBe(JOURNAL_FIELD_NAMES.length);
  });
});
