/**
 * The promise's value, or `undefined` when it fails or takes longer than `ms`: for a cache that
 * may be unreachable (a Redis outage), where a miss is the correct answer and waiting is not, and
 * for work a shutdown waits for only so long.
 */
export async function withinDeadline<T>(promise: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      promise,
      new Promise<undefined>((resolve) => {
        timer = setTimeout(() => resolve(undefined), ms);
      }),
    ]);
  } catch {
    return undefined;
  } finally {
    clearTimeout(timer);
  }
}
