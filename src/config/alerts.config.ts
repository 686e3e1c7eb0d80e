import { registerAs } from '@nestjs/config';
import { IntVar, OneOfVar, readEnv } from './env';

class AlertsEnv {
  @OneOfVar(['true', 'false'])
  ALERTS_JOBS_ENABLED?: 'true' | 'false';

  @IntVar({ min: 100, max: 3_600_000 })
  ALERTS_EVALUATION_INTERVAL_MS?: number;

  @IntVar({ min: 100, max: 300_000 })
  NOTIFICATION_STREAM_HEARTBEAT_MS?: number;
}

export const alertsConfig = registerAs('alerts', () => {
  const env = readEnv(AlertsEnv);
  return {
    /** Whether this replica runs the job runner (pg-boss) that evaluates the alert rules. */
    jobsEnabled: (env.ALERTS_JOBS_ENABLED ?? 'true') === 'true',
    /** How often a replica asks for an evaluation pass: the replay's tick; passes coalesce across replicas. */
    evaluationIntervalMs: env.ALERTS_EVALUATION_INTERVAL_MS ?? 5_000,
    /** A comment line on an idle notification stream this often, so proxies keep it open. */
    streamHeartbeatMs: env.NOTIFICATION_STREAM_HEARTBEAT_MS ?? 15_000,
  };
});

export type AlertsConfig = ReturnType<typeof alertsConfig>;
