import { newYorkTime } from './new-york-time';

const at = (iso: string) => {
  const { date, msOfDay } = newYorkTime(new Date(iso));
  return `${date} ${String(Math.floor(msOfDay / 3_600_000)).padStart(2, '0')}:${String((msOfDay / 60_000) % 60).padStart(2, '0')}`;
};

describe('newYorkTime', () => {
  it("gives New York's date and time across midnight UTC and both daylight-saving switches", () => {
    expect(at('2025-03-01T03:00:00Z')).toBe('2025-02-28 22:00');
    expect(at('2025-03-09T06:59:00Z')).toBe('2025-03-09 01:59');
    expect(at('2025-03-09T07:00:00Z')).toBe('2025-03-09 03:00');
    expect(at('2025-11-02T05:59:00Z')).toBe('2025-11-02 01:59');
    expect(at('2025-11-02T06:00:00Z')).toBe('2025-11-02 01:00');
    // the same hours again, answered from the offsets seen before
    expect(at('2025-03-09T06:30:00Z')).toBe('2025-03-09 01:30');
    expect(at('2025-03-09T07:30:00Z')).toBe('2025-03-09 03:30');
  });

  it('uses the New York date, not the UTC one, around midnight', () => {
    expect(newYorkTime(new Date('2026-11-21T03:00:00Z'))).toEqual({
      date: '2026-11-20',
      msOfDay: 22 * 3_600_000,
    });
  });

  it('agrees with the time zone database through both daylight-saving changes of a year', () => {
    const zone = new Intl.DateTimeFormat('en-CA', {
      timeZone: 'America/New_York',
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    const start = Date.parse('2026-01-01T00:00:00Z');
    for (let time = start; time < start + 366 * 86_400_000; time += 7 * 60_000 + 13_001) {
      const parts = Object.fromEntries(zone.formatToParts(time).map((part) => [part.type, part.value]));
      const msOfDay =
        (Number(parts.hour) * 3600 + Number(parts.minute) * 60 + Number(parts.second)) * 1000 + (time % 1000);
      expect(newYorkTime(new Date(time))).toEqual({
        date: `${parts.year}-${parts.month}-${parts.day}`,
        msOfDay,
      });
    }
  });
});
