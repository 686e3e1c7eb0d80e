/**
 * Work started in the background at boot to load what the routes will need (the replay prices,
 * the assistant's word list, the market graph). Shared by every application in the process, as
 * the data they load is; a warm-up leaves the set when it settles, so nothing is kept.
 */
const running = new Set<Promise<unknown>>();

/** Registers `work` as a warm-up and returns it. */
export function warmUp<T>(work: Promise<T>): Promise<T> {
  running.add(work);
  const settled = () => running.delete(work);
  work.then(settled, settled);
  return work;
}

/** Resolves once no warm-up is running, including any started while waiting. */
export async function warmUpsSettled(): Promise<void> {
  while (running.size > 0) await Promise.allSettled([...running]);
}
