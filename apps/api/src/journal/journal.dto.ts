import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { JournalEventRow } from '@twofold/persistence';

/*
 * The journal's answer, declared once: the classes are the TypeScript types the service returns and,
 * through their @ApiProperty decorators, the OpenAPI schemas (named by @ApiSchema).
 */

@ApiSchema({ name: 'JournalEvent' })
export class JournalEventDto {
  @ApiProperty({ format: 'uuid' }) eventId!: string;
  @ApiProperty({ format: 'date-time' }) eventDate!: string;
  @ApiProperty({ description: 'the object the event concerns (SPEC.md "Events")' }) object!: string;
  @ApiProperty({ description: "the initiator's login: the API key for account-key calls, `cli` for the operator" }) subject!: string;
  @ApiProperty() action!: string;
  @ApiProperty() success!: boolean;
  @ApiProperty({ type: 'object', additionalProperties: { type: 'string' } }) additionalFields!: Record<string, string>;
}

@ApiSchema({ name: 'JournalPage' })
export class JournalPageDto {
  @ApiProperty() success!: true;
  @ApiProperty({ type: 'string', nullable: true }) message!: null;
  @ApiProperty({ type: [JournalEventDto] }) data!: JournalEventDto[];
  @ApiProperty({ type: 'integer' }) offset!: number;
  @ApiProperty({ type: 'integer' }) limit!: number;
  @ApiProperty({ type: 'integer' }) totalElements!: number;
}

/** SPEC.md: the journal's answer is `{model: {success, message, data, offset, limit, totalElements}}`, nothing beside `model`. */
@ApiSchema({ name: 'JournalAnswer' })
export class JournalAnswerDto {
  @ApiProperty({ type: JournalPageDto }) model!: JournalPageDto;
}

export function toJournalEventDto(event: JournalEventRow): JournalEventDto {
  return {
    eventId: event.id,
    eventDate: event.eventDate.toISOString(),
    object: event.object,
    subject: event.subject,
    action: event.action,
    success: event.success,
    additionalFields: event.additionalFields,
  };
}
