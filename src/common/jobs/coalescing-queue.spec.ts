import { CoalescingQueue } from './coalescing-queue';

/** A run that ends when the test says so. */
function heldRuns() {
  const started: string[] = [];
  const endings: (() => void)[] = [];
  const work = (key: string) =>
    new Promise<void>((end) => {
      started.push(key);
      endings.push(end);
    });
  const endOldest = async () => {
    endings.shift()!();
    await new Promise((resolve) => setImmediate(resolve));
  };
  return { started, work, endOldest };
}

describe('CoalescingQueue', () => {
  it('runs a burst of requests for one key twice: the run already started, then one for all the others', async () => {
    const { started, work, endOldest } = heldRuns();
    const queue = new CoalescingQueue(2, work);
    const first = queue.request('ann');
    const burst = [queue.request('ann'), queue.request('ann'), queue.request('ann')];
    expect(started).toEqual(['ann']);
    let burstSettled = false;
    void Promise.all(burst).then(() => (burstSettled = true));
    await endOldest();
    await first;
    expect(started).toEqual(['ann', 'ann']);
    expect(burstSettled).toBe(false);
    await endOldest();
    await Promise.all(burst);
    expect(started).toEqual(['ann', 'ann']);
  });

  it('runs at most `limit` keys at once, the waiting ones in the order they asked', async () => {
    const { started, work, endOldest } = heldRuns();
    const queue = new CoalescingQueue(2, work);
    const all = ['ann', 'bob', 'cy', 'dee', 'bob'].map((key) => queue.request(key));
    expect(started).toEqual(['ann', 'bob']);
    await endOldest();
    expect(started).toEqual(['ann', 'bob', 'cy']);
    await endOldest();
    expect(started).toEqual(['ann', 'bob', 'cy', 'dee']);
    await endOldest();
    expect(started).toEqual(['ann', 'bob', 'cy', 'dee', 'bob']);
    await endOldest();
    await endOldest();
    await Promise.all(all);
  });

  it('goes on after a run fails', async () => {
    const started: string[] = [];
    const queue = new CoalescingQueue(1, async (key: string) => {
      started.push(key);
      if (key === 'ann') throw new Error('graph unavailable');
    });
    await Promise.all([queue.request('ann'), queue.request('bob')]);
    expect(started).toEqual(['ann', 'bob']);
  });
});
