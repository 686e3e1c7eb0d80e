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
});
