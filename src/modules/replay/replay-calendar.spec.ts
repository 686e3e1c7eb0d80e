import {
  cyclePosition,
  dateOfTradingDay,
  intradayBar,
  isHoliday,
  isTradingDate,
  nextTradingDay,
  previousTradingDay,
  sessionAt,
  tradingDayOnOrAfter,
  tradingDayOnOrBefore,
} from './replay-calendar';

describe('replay calendar', () => {
  describe('trading days', () => {
    it('counts weekdays from the epoch Monday, 2024-01-01', () => {
      expect(dateOfTradingDay(0)).toBe('2024-01-01');
      expect(dateOfTradingDay(4)).toBe('2024-01-05');
      expect(dateOfTradingDay(5)).toBe('2024-01-08');
      expect(dateOfTradingDay(-1)).toBe('2023-12-29');
    });

    it('dates trading days decades away from the epoch, inside and past its table of dates', () => {
      expect(dateOfTradingDay(-7830)).toBe('1993-12-27');
      expect(dateOfTradingDay(-7831)).toBe('1993-12-24');
      expect(dateOfTradingDay(10439)).toBe('2064-01-04');
      expect(dateOfTradingDay(10440)).toBe('2064-01-07');
      expect(dateOfTradingDay(-20000)).toBe('1947-05-05');
    });

    it('numbers every weekday, holidays included, and maps each session to its date and back', () => {
      let expected = tradingDayOnOrBefore('2022-01-03');
      let holidays = 0;
      for (let time = Date.parse('2022-01-03'); time <= Date.parse('2027-01-01'); time += 86_400_000) {
        const date = new Date(time).toISOString().slice(0, 10);
        if ([0, 6].includes(new Date(time).getUTCDay())) continue;
        expect(dateOfTradingDay(expected)).toBe(date);
        if (isTradingDate(date)) {
          expect(tradingDayOnOrBefore(date)).toBe(expected);
        } else {
          holidays += 1;
          expect(isHoliday(expected)).toBe(true);
          expect(tradingDayOnOrBefore(date)).toBe(previousTradingDay(expected));
          expect(tradingDayOnOrAfter(date)).toBe(nextTradingDay(expected));
        }
        expected += 1;
      }
      // 2022: 9 weekday holidays, 2023: 10, 2024: 10, 2025: 11 (with the day of mourning), 2026: 10, 2027-01-01
      expect(holidays).toBe(51);
    });

    it('has no session on NYSE holidays', () => {
      expect(isTradingDate('2024-07-04')).toBe(false);
      expect(dateOfTradingDay(tradingDayOnOrBefore('2024-07-04'))).toBe('2024-07-03');
      expect(dateOfTradingDay(tradingDayOnOrAfter('2024-07-04'))).toBe('2024-07-05');
      const wednesday = tradingDayOnOrBefore('2024-07-03');
      expect(sessionAt(new Date('2024-07-04T16:00:00Z'))).toEqual({ tradingDay: wednesday, progress: 1 });
      // before Friday's open the last session is still Wednesday's
      expect(sessionAt(new Date('2024-07-05T13:00:00Z'))).toEqual({ tradingDay: wednesday, progress: 1 });
    });

    it('sends a weekend back to Friday, or forward to Monday', () => {
      expect(isTradingDate('2026-11-21')).toBe(false);
      expect(dateOfTradingDay(tradingDayOnOrBefore('2026-11-21'))).toBe('2026-11-20');
      expect(dateOfTradingDay(tradingDayOnOrBefore('2026-11-22'))).toBe('2026-11-20');
      expect(dateOfTradingDay(tradingDayOnOrAfter('2026-11-22'))).toBe('2026-11-23');
      expect(dateOfTradingDay(tradingDayOnOrAfter('2026-11-20'))).toBe('2026-11-20');
    });
  });

  describe('sessionAt', () => {
    const friday = tradingDayOnOrBefore('2026-11-20');

    it('runs 09:30 to 16:00 New York time, in winter (UTC-5)', () => {
      expect(sessionAt(new Date('2026-11-20T14:29:59Z'))).toEqual({ tradingDay: friday - 1, progress: 1 });
      expect(sessionAt(new Date('2026-11-20T14:30:00Z'))).toEqual({ tradingDay: friday, progress: 0 });
      expect(sessionAt(new Date('2026-11-20T17:45:00Z'))).toEqual({ tradingDay: friday, progress: 0.5 });
      expect(sessionAt(new Date('2026-11-20T21:00:00Z'))).toEqual({ tradingDay: friday, progress: 1 });
    });

    it('follows daylight saving time (UTC-4 in summer)', () => {
      const day = tradingDayOnOrBefore('2026-07-15');
      expect(sessionAt(new Date('2026-07-15T13:30:00Z'))).toEqual({ tradingDay: day, progress: 0 });
      expect(sessionAt(new Date('2026-07-15T20:00:00Z'))).toEqual({ tradingDay: day, progress: 1 });
    });

    it("closes at 13:00 on the NYSE's early-close days", () => {
      // Thursday 2026-12-24, Christmas Eve (EST): 09:30 to 13:00
      const eve = tradingDayOnOrBefore('2026-12-24');
      expect(sessionAt(new Date('2026-12-24T16:15:00Z'))).toEqual({ tradingDay: eve, progress: 0.5 });
      expect(sessionAt(new Date('2026-12-24T18:00:00Z'))).toEqual({ tradingDay: eve, progress: 1 });
      // the day after Thanksgiving 2026
      const friday = tradingDayOnOrBefore('2026-11-27');
      expect(sessionAt(new Date('2026-11-27T18:00:00Z'))).toEqual({ tradingDay: friday, progress: 1 });
    });

    it('keeps the last close over the weekend and until Monday opens', () => {
      expect(sessionAt(new Date('2026-11-21T15:00:00Z'))).toEqual({ tradingDay: friday, progress: 1 });
      expect(sessionAt(new Date('2026-11-23T03:00:00Z'))).toEqual({ tradingDay: friday, progress: 1 });
      expect(sessionAt(new Date('2026-11-23T14:00:00Z'))).toEqual({ tradingDay: friday, progress: 1 });
      expect(sessionAt(new Date('2026-11-23T14:30:00Z'))).toEqual({ tradingDay: friday + 1, progress: 0 });
    });
  });

  describe('cyclePosition', () => {
    const days = 5;

    it('replays historical days 1..N-1 and then starts over one cycle later', () => {
      expect([0, 1, 2, 3, 4, 5].map((day) => cyclePosition(day, days))).toEqual([
        { cycle: 0, historicalDay: 1 },
        { cycle: 0, historicalDay: 2 },
        { cycle: 0, historicalDay: 3 },
        { cycle: 0, historicalDay: 4 },
        { cycle: 1, historicalDay: 1 },
        { cycle: 1, historicalDay: 2 },
      ]);
    });

    it('runs backwards before the epoch', () => {
      expect(cyclePosition(-1, days)).toEqual({ cycle: -1, historicalDay: 4 });
      expect(cyclePosition(-4, days)).toEqual({ cycle: -1, historicalDay: 1 });
      expect(cyclePosition(-5, days)).toEqual({ cycle: -2, historicalDay: 4 });
    });
  });

  describe('intradayBar', () => {
    const upDay = { open: 10, high: 13, low: 9, close: 12, volume: 1000 };
    const downDay = { open: 12, high: 13, low: 9, close: 10, volume: 1000 };

    it('starts at the open and ends on the real bar', () => {
      expect(intradayBar(upDay, 0)).toEqual({ open: 10, high: 10, low: 10, close: 10, volume: 0 });
      expect(intradayBar(upDay, 1)).toEqual(upDay);
    });

    it('goes open → low → high → close on an up day, at constant speed', () => {
      // legs 1 + 4 + 1 = 6 dollars of travel
      expect(intradayBar(upDay, 1 / 6).close).toBeCloseTo(9);
      expect(intradayBar(upDay, 0.5)).toEqual({ open: 10, high: 11, low: 9, close: 11, volume: 500 });
      expect(intradayBar(upDay, 5 / 6).close).toBeCloseTo(13);
    });

    it('goes open → high → low → close on a down day', () => {
      expect(intradayBar(downDay, 1 / 6).close).toBeCloseTo(13);
      expect(intradayBar(downDay, 5 / 6).close).toBeCloseTo(9);
    });

    it('stays within the day range and keeps running extremes', () => {
      for (let step = 0; step <= 100; step += 1) {
        const bar = intradayBar(upDay, step / 100);
        expect(bar.close).toBeGreaterThanOrEqual(bar.low);
        expect(bar.close).toBeLessThanOrEqual(bar.high);
        expect(bar.low).toBeGreaterThanOrEqual(upDay.low - 1e-9);
        expect(bar.high).toBeLessThanOrEqual(upDay.high + 1e-9);
      }
    });

    it('stands still on a day without range', () => {
      const flat = { open: 5, high: 5, low: 5, close: 5, volume: 0 };
      expect(intradayBar(flat, 0.3)).toEqual(flat);
    });
  });
});
