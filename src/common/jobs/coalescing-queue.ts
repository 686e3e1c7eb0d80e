/**
 * Background work per key (a user), run at most `limit` keys at once and one run per key at a
 * time. A request for a key already waiting joins that run; one for a key whose run has started
 * queues a single run after it, since that run may have read its source before the request's
 * change. So a burst of changes costs two runs, and waiting runs hold no database connection.
 */
export class CoalescingQueue<K> {
  /** Keys waiting for a run, oldest first, each with the requests that run answers. */
  private readonly waiting = new Map<K, (() => void)[]>();
  private readonly running = new Set<K>();

  constructor(
    private readonly limit: number,
    private readonly work: (key: K) => Promise<void>,
  ) {}

  /** Settles once a run of `key` started after this call has ended (`work` reports its own failures). */
  request(key: K): Promise<void> {
    return new Promise((settle) => {
      const requests = this.waiting.get(key);
      if (requests) requests.push(settle);
      else this.waiting.set(key, [settle]);
      this.startRuns();
    });
  }

  private startRuns(): void {
    for (const [key, requests] of this.waiting) {
      if (this.running.size >= this.limit) return;
      if (this.running.has(key)) continue;
      this.waiting.delete(key);
      this.running.add(key);
      void this.work(key)
        .catch(() => undefined)
        .finally(() => {
          this.running.delete(key);
          for (const settle of requests) settle();
          this.startRuns();
        });
    }
  }
}
