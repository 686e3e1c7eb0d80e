import { RateLimitedError } from '../errors/domain-errors';
import { FixedWindow } from './fixed-window';

describe('FixedWindow', () => {
  const window = new FixedWindow(60);
  const opened = new Date('2026-01-01T00:00:00.000Z');
  const after = (ms: number) => new Date(opened.getTime() + ms);

  it('a window opened a whole length ago or earlier has ended', () => {
    expect(window.at(after(60_000)).endedIfOpenedBy).toEqual(opened);
    expect(window.at(after(60_000)).now).toEqual(after(60_000));
  });

  it('Retry-After is the whole seconds until the window ends, rounded up, at least one', () => {
    expect(window.retryAfterSeconds(opened, opened)).toBe(60);
    expect(window.retryAfterSeconds(opened, after(1))).toBe(60);
    expect(window.retryAfterSeconds(opened, after(1_000))).toBe(59);
    expect(window.retryAfterSeconds(opened, after(59_001))).toBe(1);
    expect(window.retryAfterSeconds(opened, after(60_000))).toBe(1);
    expect(window.retryAfterSeconds(opened, after(90_000))).toBe(1);
  });

  it('a count at the limit passes and one over it is refused with the detail and Retry-After', () => {
    expect(() =>
      window.enforce({ count: 5, windowStartedAt: opened }, 5, 'slow down', after(0)),
    ).not.toThrow();
    let refusal: unknown;
    try {
      window.enforce({ count: 6, windowStartedAt: opened }, 5, 'slow down', after(15_500));
    } catch (error) {
      refusal = error;
    }
    expect(refusal).toBeInstanceOf(RateLimitedError);
    expect(refusal).toMatchObject({ message: 'slow down', retryAfterSeconds: 45 });
  });
});
