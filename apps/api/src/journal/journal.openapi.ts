import { RouteDoc } from '../openapi/api-route';
import { EXAMPLE, PAGE_QUERY, ref } from '../openapi/common.openapi';
import { JournalAnswerDto } from './journal.dto';

/* The query as clients write it, and the example, typed by the answer's class (journal.dto.ts). */

const repeatable = (name: string, description: string) => ({
  name,
  required: false,
  isArray: true,
  type: String,
  description: `${description}; repeat the parameter for several`,
});

export const JOURNAL_DOCS = {
  list: {
    summary: 'Read the journal of one past day',
    envelope: 'model',
    query: [
      { name: 'eventDate', required: true, type: String, format: 'date', description: 'yyyy-mm-dd, a past UTC day (not today)' },
      repeatable('action', 'action'),
      { name: 'subject', required: false, type: String, description: 'initiator login' },
      repeatable('object', 'target of the action'),
      { name: 'success', required: false, isArray: true, type: Boolean, description: 'true or false; repeat the parameter for both' },
      ...PAGE_QUERY,
    ],
    ok: {
      schema: ref(JournalAnswerDto),
      example: {
        model: {
          success: true,
          message: null,
          data: [
            {
              eventId: EXAMPLE.requestId,
              eventDate: EXAMPLE.timestamp,
              object: 'User',
              subject: 'EXAMPLE-ACCOUNT-KEY',
              action: 'Create',
              success: true,
              additionalFields: { UserIdentity: 'jane' },
            },
          ],
          offset: 0,
          limit: 100,
          totalElements: 1,
        },
      } satisfies JournalAnswerDto,
    },
    errors: { 400: 'eventDate must be a past day, not today or later.' },
  },
} satisfies Record<string, RouteDoc>;
