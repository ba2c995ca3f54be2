import { TestApp, TEST_NOW } from './test-app';

export interface JournalEventBody {
  object: string;
  action: string;
  subject: string;
  success: boolean;
  additionalFields: Record<string, string>;
}

/**
 * The journal of TEST_NOW's day, as a client reads it: the journal only serves past days, so the
 * clock steps one day ahead for the read and back to where it was afterwards.
 */
export async function journalOfToday(t: TestApp, authorization: string, query = ''): Promise<JournalEventBody[]> {
  const before = t.clock.now();
  t.clock.set(new Date(TEST_NOW.getTime() + 24 * 3600 * 1000));
  try {
    const res = await t.as(authorization).get(`/journal?eventDate=2026-05-20&limit=1000${query ? `&${query}` : ''}`);
    if (res.status !== 200) throw new Error(`journal read failed: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body.model.data as JournalEventBody[];
  } finally {
    t.clock.set(before);
  }
}
