import { Injectable } from '@nestjs/common';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

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
    help: 'Lookups in the market graph answer caches, by answer (related or exposure) and result (hit or miss)',
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

  constructor() {
    collectDefaultMetrics({ register: this.registry });
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
