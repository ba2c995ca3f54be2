import { ApiProperty } from '@nestjs/swagger';
import { RouteDoc } from '../openapi/api-route';
import { EXAMPLE, PAGE_QUERY, ref } from '../openapi/common.openapi';

export class JournalEvent {
  @ApiProperty({ format: 'uuid' }) eventId!: string;
  @ApiProperty({ format: 'date-time' }) eventDate!: string;
  @ApiProperty({ description: 'the object the event concerns (SPEC.md "Events")' }) object!: string;
  @ApiProperty({ description: "the initiator's login: the API key for account-key calls, `cli` for the operator" }) subject!: string;
  @ApiProperty() action!: string;
  @ApiProperty() success!: boolean;
  @ApiProperty({ type: 'object', additionalProperties: { type: 'string' } }) additionalFields!: Record<string, string>;
}

export class JournalPage {
  @ApiProperty() success!: boolean;
  @ApiProperty({ type: 'string', nullable: true }) message!: string | null;
  @ApiProperty({ type: [JournalEvent] }) data!: JournalEvent[];
  @ApiProperty({ type: 'integer' }) offset!: number;
  @ApiProperty({ type: 'integer' }) limit!: number;
  @ApiProperty({ type: 'integer' }) totalElements!: number;
}

/** SPEC.md: the journal's answer is `{model: {success, message, data, offset, limit, totalElements}}`, nothing beside `model`. */
export class JournalAnswer {
  @ApiProperty({ type: JournalPage }) model!: JournalPage;
}

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
      schema: ref(JournalAnswer),
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
      },
    },
    errors: { 400: 'eventDate must be a past day, not today or later.' },
  },
} satisfies Record<string, RouteDoc>;
