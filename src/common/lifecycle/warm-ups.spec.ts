import { warmUp, warmUpsSettled } from './warm-ups';

const later = <T>(value: T, ms: number) => new Promise<T>((resolve) => setTimeout(() => resolve(value), ms));

describe('warm-ups', () => {
  it('settle once every warm-up has, including one started while waiting and one that failed', async () => {
    const finished: string[] = [];
    void warmUp(later('prices', 20)).then((name) => {
      finished.push(name);
      void warmUp(later('graph', 20)).then((next) => finished.push(next));
    });
    warmUp(Promise.reject(new Error('no word list'))).catch(() => finished.push('words failed'));

    await warmUpsSettled();

    expect(finished).toEqual(['words failed', 'prices', 'graph']);
  });

  it('settle at once when nothing warms up', async () => {
    await expect(warmUpsSettled()).resolves.toBeUndefined();
  });
});
