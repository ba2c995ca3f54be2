import { isSettledDay, parsePastDay } from './past-day';

describe('parsePastDay', () => {
  const now = new Date('2026-03-10T00:30:00Z');

  it('accepts yesterday and gives the UTC day range', () => {
    const range = parsePastDay('eventDate', '2026-03-09', now);
    expect(range.from.toISOString()).toBe('2026-03-09T00:00:00.000Z');
    expect(range.to.toISOString()).toBe('2026-03-10T00:00:00.000Z');
  });

  it('refuses today by the injected clock, even just after midnight', () => {
    expect(() => parsePastDay('eventDate', '2026-03-10', now)).toThrow('must be a past day');
  });

  it('refuses a future day', () => {
    expect(() => parsePastDay('eventDate', '2026-03-11', now)).toThrow('must be a past day');
  });

  it.each([undefined, ''])('requires the day (%p)', (raw) => {
    expect(() => parsePastDay('eventDate', raw, now)).toThrow('eventDate is required.');
  });

  it.each(['2026-3-9', '09.03.2026', '2026-02-30', '2026-13-01', ['2026-03-09']])('refuses %p', (raw) => {
    expect(() => parsePastDay('eventDate', raw, now)).toThrow(/eventDate/);
  });
});

describe('isSettledDay', () => {
  const yesterday = parsePastDay('eventDate', '2026-03-09', new Date('2026-03-10T12:00:00Z'));

  it('is not settled until fifteen minutes after its end: a late row may still land on it', () => {
    expect(isSettledDay(yesterday, new Date('2026-03-10T00:00:00Z'))).toBe(false);
    expect(isSettledDay(yesterday, new Date('2026-03-10T00:14:59.999Z'))).toBe(false);
  });

  it('is settled from fifteen minutes after its end', () => {
    expect(isSettledDay(yesterday, new Date('2026-03-10T00:15:00Z'))).toBe(true);
    expect(isSettledDay(yesterday, new Date('2027-01-01T00:00:00Z'))).toBe(true);
  });
});
