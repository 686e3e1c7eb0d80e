import { TestApp } from '../setup/test-app';
import { typedApi } from './typed-api';

/**
 * The market graph builds in the background after boot (health says `degraded` until then, and
 * the risk figures carry no cluster view): waits until health reports it `connected`.
 */
export async function untilMarketGraphConnected(sut: TestApp): Promise<void> {
  for (let tries = 0; tries < 150; tries += 1) {
    const health = await typedApi(sut).GET('/api/v1/system/health');
    if (health.data?.services.graph_database === 'connected') return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error('The market graph did not connect within 30 s');
}
