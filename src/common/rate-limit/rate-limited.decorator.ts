import { SetMetadata } from '@nestjs/common';

export const RATE_LIMITED = 'rateLimited';

/** Counts this route's requests per client address and in total, under `bucket` (see RateLimitGuard). */
export const RateLimited = (bucket: string) => SetMetadata(RATE_LIMITED, bucket);
