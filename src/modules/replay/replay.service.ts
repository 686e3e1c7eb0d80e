import { Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { loadReplayDataset } from './replay-data.loader';
import { ReplayMarket } from './replay-market';

/**
 * Loads the shipped history once, off the boot path: loading starts when the application has
 * bootstrapped and the first request that needs it awaits the same promise.
 */
@Injectable()
export class ReplayDataSource implements OnApplicationBootstrap {
  private loading: Promise<ReplayMarket> | null = null;

  onApplicationBootstrap(): void {
    // Warm up in the background; a failure surfaces to the first caller of market().
    this.market().catch(() => undefined);
  }

  market(): Promise<ReplayMarket> {
    if (!this.loading) {
      this.loading = loadReplayDataset().then((dataset) => new ReplayMarket(dataset));
      this.loading.catch(() => {
        this.loading = null;
      });
    }
    return this.loading;
  }
}
