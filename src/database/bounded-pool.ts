import pg from 'pg';

/** The pool's wait queue is full: the request is refused at once rather than queued without end. */
export class PoolQueueFullError extends Error {
  constructor(maxWaiting: number) {
    super(`All database connections are busy and ${maxWaiting} requests already wait for one`);
    this.name = 'PoolQueueFullError';
  }
}

/** pg's message when a query outlived `query_timeout` (the server did not answer in time). */
export const QUERY_READ_TIMEOUT = 'Query read timeout';

export interface BoundedPoolOptions extends pg.PoolConfig {
  /** Most requests waiting for a connection; the next one fails with PoolQueueFullError. */
  maxWaiting: number;
  /** Opening one connection; `connectionTimeoutMillis` bounds the whole wait for one, queue included. */
  connectTimeoutMillis: number;
}

/**
 * A client whose connection is dropped when a query outlives `query_timeout`: pg only stops
 * waiting for the answer, and the pool would otherwise hand out a connection still busy with
 * (or cut off from) the abandoned query.
 */
class DeadlineClient extends pg.Client {
  constructor(config: BoundedPoolOptions) {
    super({ ...config, connectionTimeoutMillis: config.connectTimeoutMillis });
  }

  override query(...args: unknown[]): never {
    const result = (super.query as (...a: unknown[]) => unknown).apply(this, args);
    if (result instanceof Promise) {
      result.catch((error: unknown) => {
        if (error instanceof Error && error.message === QUERY_READ_TIMEOUT) this.dropConnection();
      });
    }
    return result as never;
  }

  private dropConnection(): void {
    (this as unknown as { connection: { stream: { destroy(): void } } }).connection.stream.destroy();
  }
}

/** pg's pool with a bounded wait queue and clients that drop a connection after a query deadline. */
class BoundedPool extends pg.Pool {
  private readonly maxWaiting: number;

  constructor(options: BoundedPoolOptions) {
    super({ ...options, Client: DeadlineClient as unknown as new () => pg.ClientBase });
    this.maxWaiting = options.maxWaiting;
  }

  override connect(...args: unknown[]): never {
    if (this.waitingCount >= this.maxWaiting) {
      const error = new PoolQueueFullError(this.maxWaiting);
      const callback = args[0];
      if (typeof callback === 'function') {
        process.nextTick(() => (callback as (error: Error) => void)(error));
        return undefined as never;
      }
      return Promise.reject(error) as never;
    }
    return (super.connect as (...a: unknown[]) => unknown).apply(this, args) as never;
  }
}

/** The `pg` module as TypeORM loads it, with the bounded pool in place of pg's. */
export const boundedPg: typeof pg = Object.create(pg, {
  Pool: { value: BoundedPool, enumerable: true },
}) as typeof pg;
