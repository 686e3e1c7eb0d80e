import { deliveryDueAt } from './delivery-schedule';
import { zonedInstant } from './zoned-time';

describe('deliveryDueAt', () => {
  const at = (iso: string) => new Date(iso);

  it('is now for real-time and the next top of the hour for hourly', () => {
    expect(deliveryDueAt(at('2026-11-18T10:17:00Z'), 'real-time', 'morning', 'UTC')).toEqual(
      at('2026-11-18T10:17:00Z'),
    );
    expect(deliveryDueAt(at('2026-11-18T10:17:00Z'), 'hourly', 'morning', 'UTC')).toEqual(
      at('2026-11-18T11:00:00Z'),
    );
  });

  it('is the next summary time in the user’s zone for daily', () => {
    expect(deliveryDueAt(at('2026-11-18T03:00:00Z'), 'daily', 'morning', 'Europe/Berlin')).toEqual(
      at('2026-11-18T06:30:00Z'),
    );
    expect(deliveryDueAt(at('2026-11-18T07:00:00Z'), 'daily', 'morning', 'Europe/Berlin')).toEqual(
      at('2026-11-19T06:30:00Z'),
    );
    expect(deliveryDueAt(at('2026-11-18T03:00:00Z'), 'daily', 'evening', 'Asia/Tokyo')).toEqual(
      at('2026-11-18T09:00:00Z'),
    );
  });

  it('follows New York 16:30 for convenient, whatever the user’s zone', () => {
    expect(deliveryDueAt(at('2026-11-18T12:00:00Z'), 'daily', 'convenient', 'Asia/Tokyo')).toEqual(
      at('2026-11-18T21:30:00Z'),
    );
  });

  it('is the next Monday at the summary time for weekly', () => {
    expect(deliveryDueAt(at('2026-11-18T12:00:00Z'), 'weekly', 'lunch', 'America/New_York')).toEqual(
      at('2026-11-23T17:00:00Z'),
    );
  });

  it('places local times across daylight-saving changes', () => {
    expect(zonedInstant('2026-03-08', 7 * 60 + 30, 'America/New_York')).toEqual(at('2026-03-08T11:30:00Z'));
    expect(zonedInstant('2026-03-07', 7 * 60 + 30, 'America/New_York')).toEqual(at('2026-03-07T12:30:00Z'));
    expect(zonedInstant('2026-10-25', 12 * 60, 'Europe/Berlin')).toEqual(at('2026-10-25T11:00:00Z'));
  });
});
