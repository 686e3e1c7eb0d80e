import {
  EARLY_CLOSE_MINUTE,
  isNyseTradingDay,
  nyseCloseMinute,
  nyseHoliday,
  nyseSessionsBefore,
  REGULAR_CLOSE_MINUTE,
} from './nyse-calendar';

function holidaysOf(year: number): string[] {
  const dates: string[] = [];
  for (let time = Date.UTC(year, 0, 1); time < Date.UTC(year + 1, 0, 1); time += 86_400_000) {
    const date = new Date(time).toISOString().slice(0, 10);
    if (nyseHoliday(date)) dates.push(date);
  }
  return dates;
}

function sessionsIn(year: number): number {
  let count = 0;
  for (let time = Date.UTC(year, 0, 1); time < Date.UTC(year + 1, 0, 1); time += 86_400_000) {
    if (isNyseTradingDay(new Date(time).toISOString().slice(0, 10))) count += 1;
  }
  return count;
}

describe('NYSE calendar', () => {
  it('matches the exchange-published holiday schedules', () => {
    // nyse.com "Holidays and trading hours"
    expect(holidaysOf(2024)).toEqual([
      '2024-01-01',
      '2024-01-15',
      '2024-02-19',
      '2024-03-29',
      '2024-05-27',
      '2024-06-19',
      '2024-07-04',
      '2024-09-02',
      '2024-11-28',
      '2024-12-25',
    ]);
    expect(holidaysOf(2025)).toEqual([
      '2025-01-01',
      '2025-01-09',
      '2025-01-20',
      '2025-02-17',
      '2025-04-18',
      '2025-05-26',
      '2025-06-19',
      '2025-07-04',
      '2025-09-01',
      '2025-11-27',
      '2025-12-25',
    ]);
    // New Year's Day on a Saturday is not observed; Juneteenth on a Sunday moves to Monday
    expect(holidaysOf(2022)).toEqual([
      '2022-01-17',
      '2022-02-21',
      '2022-04-15',
      '2022-05-30',
      '2022-06-20',
      '2022-07-04',
      '2022-09-05',
      '2022-11-24',
      '2022-12-26',
    ]);
    // Saturday holidays move to the Friday before
    expect(holidaysOf(2027)).toEqual([
      '2027-01-01',
      '2027-01-18',
      '2027-02-15',
      '2027-03-26',
      '2027-05-31',
      '2027-06-18',
      '2027-07-05',
      '2027-09-06',
      '2027-11-25',
      '2027-12-24',
    ]);
    expect(nyseHoliday('2016-03-25')).toBe('Good Friday');
    expect(nyseHoliday('2018-12-05')).toBe('National Day of Mourning (George H. W. Bush)');
    expect(nyseHoliday('2024-06-19')).toBe('Juneteenth');
    expect(nyseHoliday('2021-06-18')).toBeNull();
  });

  it('counts the sessions of a year', () => {
    expect(sessionsIn(2018)).toBe(251);
    expect(sessionsIn(2023)).toBe(250);
    expect(sessionsIn(2024)).toBe(252);
    expect(sessionsIn(2025)).toBe(250);
  });

  it('closes early on the eves of Independence Day and Christmas and after Thanksgiving', () => {
    expect(nyseCloseMinute('2024-07-03')).toBe(EARLY_CLOSE_MINUTE);
    expect(nyseCloseMinute('2024-11-29')).toBe(EARLY_CLOSE_MINUTE);
    expect(nyseCloseMinute('2024-12-24')).toBe(EARLY_CLOSE_MINUTE);
    // Jul 4 on a Monday: no early close on Friday Jul 1
    expect(nyseCloseMinute('2022-07-01')).toBe(REGULAR_CLOSE_MINUTE);
    expect(nyseCloseMinute('2023-07-03')).toBe(EARLY_CLOSE_MINUTE);
    expect(nyseCloseMinute('2024-07-05')).toBe(REGULAR_CLOSE_MINUTE);
    expect(nyseCloseMinute('2024-12-25')).toBeNull();
    expect(nyseCloseMinute('2024-12-28')).toBeNull();
  });

  it('finds the start of a window of N sessions across holidays', () => {
    // Tue 2024-01-02 back 1 session skips New Year's Day and the weekend: Fri 2023-12-29
    expect(nyseSessionsBefore('2024-01-02', 1)).toBe('2023-12-29');
    // the 252 sessions of 2024 end on Dec 31; counting them back from Jan 2, 2025 lands on Jan 2, 2024
    expect(nyseSessionsBefore('2025-01-02', 252)).toBe('2024-01-02');
  });
});
