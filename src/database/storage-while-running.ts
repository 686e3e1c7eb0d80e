import type { AsyncLocalStorage } from 'node:async_hooks';

/**
 * Keeps `storage` enabled only while one of its `run` callbacks (or the promise it returned) is
 * unsettled. On Node 20 an enabled AsyncLocalStorage writes its store onto every promise the
 * process creates, wherever it is created: with the request logger's storage beside it, that is a
 * fourth property on each promise, which makes V8 grow the promise's property array (≈ 100 bytes
 * and a copy per promise, some 60 promises per request). Disabled, `getStore()` answers undefined,
 * as it does outside a run; a run enables it again, and what its callback starts inherits the
 * store as before.
 */
export function enableWhileRunning(storage: AsyncLocalStorage<unknown>): void {
  const run = storage.run.bind(storage);
  let running = 0;
  const settle = () => {
    running -= 1;
    if (running === 0) storage.disable();
  };
  storage.run = <R>(store: unknown, callback: (...args: unknown[]) => R, ...args: unknown[]): R => {
    running += 1;
    let result: R;
    try {
      result = run(store, callback, ...args);
    } catch (error) {
      settle();
      throw error;
    }
    if (result instanceof Promise) void result.then(settle, settle);
    else settle();
    return result;
  };
  storage.disable();
}
