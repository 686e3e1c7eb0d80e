import type { JobDefinition } from './job-runner';
import { JobQueue, QueueWorker } from './queue-worker';

const waitUntil = async (holds: () => boolean, timeoutMs = 2_000) => {
  const deadline = Date.now() + timeoutMs;
  while (!holds() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 5));
  return holds();
};

/** A queue whose fetch hands out the runs put on it, and records what it was asked. */
function fakeQueue() {
  const waiting: { id: string }[] = [];
  const completed: string[] = [];
  let fetches = 0;
  const queue = {
    fetch: async () => {
      fetches++;
      return waiting.splice(0);
    },
    complete: async (_name: string, id: string) => {
      completed.push(id);
    },
    fail: async () => undefined,
  } as unknown as JobQueue;
  return { queue, waiting, completed, fetches: () => fetches };
}

describe('QueueWorker', () => {
  const job = (run: () => Promise<void>): JobDefinition => ({
    name: 'probe',
    retryLimit: 0,
    pollingIntervalSeconds: 60,
    expireInSeconds: 60,
    run,
  });

  it('takes a run asked for on this replica at once, not at the next poll', async () => {
    const { queue, waiting, completed, fetches } = fakeQueue();
    const worker = new QueueWorker(
      queue,
      job(async () => undefined),
    );
    worker.start();
    expect(await waitUntil(() => fetches() === 1)).toBe(true);

    waiting.push({ id: 'asked' });
    worker.lookNow();

    expect(await waitUntil(() => completed.includes('asked'))).toBe(true);
    await worker.stop();
  });

  it('looks again right after the run in progress when a run is asked for meanwhile', async () => {
    const { queue, waiting, completed } = fakeQueue();
    let endRun: () => void = () => undefined;
    const worker = new QueueWorker(
      queue,
      job(() => new Promise<void>((resolve) => (endRun = resolve))),
    );
    waiting.push({ id: 'first' });
    worker.start();
    expect(await waitUntil(() => waiting.length === 0)).toBe(true);

    waiting.push({ id: 'second' });
    worker.lookNow();
    endRun();
    expect(await waitUntil(() => completed.includes('first'))).toBe(true);
    expect(await waitUntil(() => completed.length === 1 && waiting.length === 0)).toBe(true);
    endRun();

    expect(await waitUntil(() => completed.includes('second'))).toBe(true);
    await worker.stop();
  });
});
