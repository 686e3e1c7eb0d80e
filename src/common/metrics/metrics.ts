import { Injectable } from '@nestjs/common';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { liveCacheCounters } from './cache-counters';

export const METRICS_CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8';
const LATENCY_BUCKETS_SECONDS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/**
 * Every Prometheus metric the service exposes on GET /metrics, in a registry of its own (not
 * prom-client's global one, so test apps in one process do not share counts). Process metrics
 * (event-loop lag, heap, GC, CPU) come from prom-client's defaults.
 */
@Injectable()
export class Metrics {
  readonly registry = new Registry();

  readonly httpRequests = new Counter({
    name: 'http_requests_total',
    help: 'HTTP requests answered, by method, route template and status',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [this.registry],
  });

  readonly httpRequestDuration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Time from receiving a request to answering it, by method, route template and status',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: LATENCY_BUCKETS_SECONDS,
    registers: [this.registry],
  });

  readonly providerCache = new Counter({
    name: 'provider_cache_requests_total',
    help: 'Lookups in the provider-answer cache, by result (hit or miss)',
    labelNames: ['result'] as const,
    registers: [this.registry],
  });

  readonly providerCalls = new Counter({
    name: 'provider_calls_total',
    help: 'Calls to third-party data providers, by provider, kind and outcome (ok or error)',
    labelNames: ['provider', 'kind', 'outcome'] as const,
    registers: [this.registry],
  });

  readonly providerCallDuration = new Histogram({
    name: 'provider_call_duration_seconds',
    help: 'Duration of calls to third-party data providers',
    labelNames: ['provider', 'kind'] as const,
    buckets: LATENCY_BUCKETS_SECONDS,
    registers: [this.registry],
  });

  readonly throttleRejections = new Counter({
    name: 'throttle_rejections_total',
    help: 'Requests refused with 429 by a login lockout or rate limit, by route template',
    labelNames: ['route'] as const,
    registers: [this.registry],
  });

  readonly graphAnswerCache = new Counter({
    name: 'graph_answer_cache_requests_total',
    help: 'Lookups in the market graph answer caches, by answer (related, exposure, or clusters for the risk figures) and result (hit or miss)',
    labelNames: ['answer', 'result'] as const,
    registers: [this.registry],
  });

  readonly cleanupRuns = new Counter({
    name: 'cleanup_runs_total',
    help: 'Runs of the periodic clean-up jobs on this replica, by job and outcome (ok or error)',
    labelNames: ['job', 'outcome'] as const,
    registers: [this.registry],
  });

  readonly cleanupRowsRemoved = new Counter({
    name: 'cleanup_rows_removed_total',
    help: 'Expired rows deleted by the periodic clean-up jobs on this replica, by job',
    labelNames: ['job'] as const,
    registers: [this.registry],
  });

  readonly cleanupLastSuccess = new Gauge({
    name: 'cleanup_last_success_timestamp_seconds',
    help: 'When a clean-up job last succeeded on this replica (Unix time), by job',
    labelNames: ['job'] as const,
    registers: [this.registry],
  });

  readonly dependencyUnavailable = new Counter({
    name: 'dependency_unavailable_total',
    help: 'Requests answered 503 because the database did not answer in time',
    registers: [this.registry],
  });

  /**
   * The labelled series of each (method, route template, status) seen, so that counting a request
   * is a map lookup rather than prom-client hashing and checking the labels twice per request.
   * Bounded by the routes and statuses the service has.
   */
  private readonly requestSeries = new Map<
    string,
    { count: Counter.Internal; duration: Histogram.Internal<'method' | 'route' | 'status'> }
  >();

  constructor() {
    collectDefaultMetrics({ register: this.registry });
    this.exposeCaches();
  }

  /** The in-process caches' counters (see CacheCounters), summed per cache name when scraped. */
  private exposeCaches(): void {
    const byName = () => {
      const sums = new Map<
        string,
        { hits: number; misses: number; evictions: number; size: number; capacity: number }
      >();
      for (const each of liveCacheCounters()) {
        const sum = sums.get(each.cache) ?? { hits: 0, misses: 0, evictions: 0, size: 0, capacity: 0 };
        sum.hits += each.hits;
        sum.misses += each.misses;
        sum.evictions += each.evictions;
        sum.size += each.size();
        sum.capacity += each.capacity;
        sums.set(each.cache, sum);
      }
      return sums;
    };
    const registers = [this.registry];
    new Counter({
      name: 'cache_requests_total',
      help: 'Lookups in the in-process caches, by cache and result (hit or miss)',
      labelNames: ['cache', 'result'] as const,
      registers,
      collect() {
        this.reset();
        for (const [cache, sum] of byName()) {
          this.inc({ cache, result: 'hit' }, sum.hits);
          this.inc({ cache, result: 'miss' }, sum.misses);
        }
      },
    });
    new Counter({
      name: 'cache_evictions_total',
      help: 'Entries the in-process caches dropped to stay within their bound, by cache',
      labelNames: ['cache'] as const,
      registers,
      collect() {
        this.reset();
        for (const [cache, sum] of byName()) this.inc({ cache }, sum.evictions);
      },
    });
    new Gauge({
      name: 'cache_size',
      help: 'What the in-process caches hold, by cache, in the unit of their bound (entries, or rows or bars)',
      labelNames: ['cache'] as const,
      registers,
      collect() {
        for (const [cache, sum] of byName()) this.set({ cache }, sum.size);
      },
    });
    new Gauge({
      name: 'cache_capacity',
      help: 'The bound of the in-process caches, by cache, in the unit of cache_size',
      labelNames: ['cache'] as const,
      registers,
      collect() {
        for (const [cache, sum] of byName()) this.set({ cache }, sum.capacity);
      },
    });
  }

  /** One answered request, into `http_requests_total` and `http_request_duration_seconds`. */
  countRequest(method: string, route: string, status: number, seconds: number): void {
    const key = `${method} ${status} ${route}`;
    let series = this.requestSeries.get(key);
    if (!series) {
      const labels = { method, route, status: String(status) };
      series = { count: this.httpRequests.labels(labels), duration: this.httpRequestDuration.labels(labels) };
      this.requestSeries.set(key, series);
    }
    series.count.inc();
    series.duration.observe(seconds);
  }

  /** A gauge read when scraped (pool sizes, Redis state). */
  gauge(name: string, help: string, labelNames: string[], collect: (gauge: Gauge) => Promise<void> | void) {
    return new Gauge({
      name,
      help,
      labelNames,
      registers: [this.registry],
      async collect() {
        await collect(this);
      },
    });
  }
}
