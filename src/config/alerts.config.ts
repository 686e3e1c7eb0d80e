import { registerAs } from '@nestjs/config';
import { Matches } from 'class-validator';
import { HttpUrlVar, IntVar, readEnv, StringVar } from './env';

class AlertsEnv {
  @IntVar({ min: 100, max: 3_600_000 })
  ALERTS_EVALUATION_INTERVAL_MS?: number;

  @IntVar({ min: 100, max: 300_000 })
  NOTIFICATION_STREAM_HEARTBEAT_MS?: number;

  @IntVar({ min: 1, max: 1_000 })
  NOTIFICATION_STREAMS_PER_USER?: number;

  @IntVar({ min: 1, max: 100_000 })
  NOTIFICATION_STREAMS_TOTAL?: number;

  @StringVar()
  WEBHOOK_ALLOWED_HOSTS?: string;

  @IntVar({ min: 1, max: 20 })
  WEBHOOK_MAX_ATTEMPTS?: number;

  @IntVar({ min: 10, max: 3_600_000 })
  WEBHOOK_RETRY_BASE_MS?: number;

  @IntVar({ min: 100, max: 60_000 })
  WEBHOOK_TIMEOUT_MS?: number;

  @StringVar()
  @Matches(/^smtps?:\/\/.+/, { message: 'SMTP_URL must be an smtp:// or smtps:// URL' })
  SMTP_URL?: string;

  @StringVar()
  EMAIL_FROM?: string;

  @HttpUrlVar()
  PUBLIC_URL?: string;
}

export const alertsConfig = registerAs('alerts', () => {
  const env = readEnv(AlertsEnv);
  return {
    /** How often a replica asks for an evaluation pass: the replay's tick; passes coalesce across replicas. */
    evaluationIntervalMs: env.ALERTS_EVALUATION_INTERVAL_MS ?? 5_000,
    /** A comment line on an idle notification stream this often, so proxies keep it open. */
    streamHeartbeatMs: env.NOTIFICATION_STREAM_HEARTBEAT_MS ?? 15_000,
    /** Notification streams held open on one replica, per user and in all; beyond either, 429. */
    streamsPerUser: env.NOTIFICATION_STREAMS_PER_USER ?? 5,
    streamsTotal: env.NOTIFICATION_STREAMS_TOTAL ?? 1_000,
    /**
     * Hosts (`host` or `host:port`) a webhook may name although they are not https or resolve to a
     * private or loopback address: an operator's own receivers.
     */
    webhookAllowedHosts: (env.WEBHOOK_ALLOWED_HOSTS ?? '')
      .split(',')
      .map((host) => host.trim().toLowerCase())
      .filter((host) => host !== ''),
    webhookMaxAttempts: env.WEBHOOK_MAX_ATTEMPTS ?? 6,
    /** The first retry waits this long, each next one twice as long. */
    webhookRetryBaseMs: env.WEBHOOK_RETRY_BASE_MS ?? 30_000,
    webhookTimeoutMs: env.WEBHOOK_TIMEOUT_MS ?? 5_000,
    /** Unset: email is off, and the settings say so. */
    smtpUrl: env.SMTP_URL ?? null,
    emailFrom: env.EMAIL_FROM ?? 'Investment Assistant <alerts@localhost>',
    /** Where links in emails and webhooks point (the inbox, unsubscribe). */
    publicUrl: (env.PUBLIC_URL ?? 'http://localhost:8000').replace(/\/+$/, ''),
  };
});

export type AlertsConfig = ReturnType<typeof alertsConfig>;
