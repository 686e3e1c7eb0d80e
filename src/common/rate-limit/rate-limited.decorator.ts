import { SetMetadata } from '@nestjs/common';
import type { RateLimitBucket } from '../../config/rate-limit.config';

export const RATE_LIMITED = 'rateLimited';

/**
 * Counts this route's well-formed requests per client address (and in total, where the bucket has
 * a shared limit) under `bucket`; see RateLimitGuard.
 */
export const RateLimited = (bucket: RateLimitBucket) => SetMetadata(RATE_LIMITED, bucket);
