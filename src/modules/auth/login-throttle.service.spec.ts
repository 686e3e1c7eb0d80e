import { createCache } from 'cache-manager';
import { Clock } from '../../common/clock/clock';
import { TooManyRequestsException } from '../../common/errors/too-many-requests.exception';
import { LoginThrottleService } from './login-throttle.service';

class FakeClock extends Clock {
  constructor(public current = new Date('2026-01-05T10:00:00Z')) {
    super();
  }
  now(): Date {
    return this.current;
  }
  advance(ms: number): void {
    this.current = new Date(this.current.getTime() + ms);
  }
}

describe('LoginThrottleService', () => {
  const config = { failedLoginLimit: 3, failedLoginWindowSeconds: 900 } as never;
  let clock: FakeClock;
  let sut: LoginThrottleService;

  beforeEach(() => {
    clock = new FakeClock();
    sut = new LoginThrottleService(createCache(), clock, config);
  });

  async function fail(times: number, email = 'a@example.com', ip = '10.0.0.1') {
    for (let attempt = 0; attempt < times; attempt += 1) await sut.recordFailure(email, ip);
  }

  it('allows attempts below the limit', async () => {
    await fail(2);
    await expect(sut.assertAllowed('a@example.com', '10.0.0.1')).resolves.toBeUndefined();
  });

  it('refuses at the limit with the seconds left in the window', async () => {
    await fail(3);
    clock.advance(60_000);
    const refusal = await sut.assertAllowed('a@example.com', '10.0.0.1').catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(TooManyRequestsException);
    expect((refusal as TooManyRequestsException).retryAfterSeconds).toBe(840);
  });

  it('counts per email and IP, case-insensitively for the email', async () => {
    await fail(3, 'A@Example.com');
    await expect(sut.assertAllowed('a@example.com', '10.0.0.1')).rejects.toBeInstanceOf(
      TooManyRequestsException,
    );
    await expect(sut.assertAllowed('a@example.com', '10.0.0.2')).resolves.toBeUndefined();
    await expect(sut.assertAllowed('b@example.com', '10.0.0.1')).resolves.toBeUndefined();
  });

  it('forgets failures once the window has passed', async () => {
    await fail(3);
    clock.advance(900_000);
    await expect(sut.assertAllowed('a@example.com', '10.0.0.1')).resolves.toBeUndefined();
    await fail(1);
    await expect(sut.assertAllowed('a@example.com', '10.0.0.1')).resolves.toBeUndefined();
  });
});
