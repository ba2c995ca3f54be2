import { JournalEventRow } from '@twofold/persistence';

export interface JournalEventDto {
  eventId: string;
  eventDate: string;
  object: string;
  subject: string;
  action: string;
  success: boolean;
  additionalFields: Record<string, string>;
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
