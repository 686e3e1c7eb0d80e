import { Logger } from '@nestjs/common';

/**
 * V8's memory-reducing collection, the one it runs on a low-memory notification: full collections
 * until nothing more is freed, then the young generation shrunk to its initial size. The boot's
 * warm-ups leave tens of MB of garbage and grow the young generation to its maximum, which V8
 * would keep committed until its memory reducer next runs (often not for minutes); a plain `gc()`
 * frees the garbage but keeps the young generation. Node offers this collection only through the
 * inspector protocol, on an in-process session (no port is opened).
 */
export async function reduceMemory(): Promise<void> {
  try {
    const { Session } = await import('node:inspector');
    const session = new Session();
    session.connect();
    try {
      await new Promise<void>((done, fail) =>
        session.post('HeapProfiler.collectGarbage', (error) => (error ? fail(error) : done())),
      );
    } finally {
      session.disconnect();
    }
  } catch (error) {
    // A Node built without the inspector, or the collection refused: V8 gives the memory back later.
    new Logger('Bootstrap').warn(`The boot's memory was not given back at once: ${String(error)}`);
  }
}
