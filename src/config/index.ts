import { alertsConfig } from './alerts.config';
import { appConfig } from './app.config';
import { assistantConfig } from './assistant.config';
import { authConfig } from './auth.config';
import { cacheConfig } from './cache.config';
import { databaseConfig } from './database.config';
import { jobsConfig } from './jobs.config';
import { marketConfig } from './market.config';
import { newsConfig } from './news.config';
import { portfolioConfig } from './portfolio.config';
import { rateLimitConfig } from './rate-limit.config';
import { vendorsConfig } from './vendors.config';

/** Every configuration namespace; each validates its own variables when the app boots. */
export const configNamespaces = [
  alertsConfig,
  appConfig,
  assistantConfig,
  authConfig,
  cacheConfig,
  databaseConfig,
  jobsConfig,
  marketConfig,
  newsConfig,
  portfolioConfig,
  rateLimitConfig,
  vendorsConfig,
];
