import { registerAs } from '@nestjs/config';
import { OneOfVar, readEnv } from './env';

class JobsEnv {
  @OneOfVar(['true', 'false'])
  JOBS_ENABLED?: 'true' | 'false';
}

export const jobsConfig = registerAs('jobs', () => {
  const env = readEnv(JobsEnv);
  return {
    /**
     * Whether this replica runs the job runner (pg-boss on the service's PostgreSQL): alert
     * evaluation, notification delivery and the periodic clean-ups.
     */
    enabled: (env.JOBS_ENABLED ?? 'true') === 'true',
  };
});
