import { Metrics } from '../../common/metrics/metrics';
import { Clock } from '../../common/time/clock';
import { CorrelationModel } from './correlation-model';
import { GraphMaintenance } from './graph-maintenance.service';
import { GraphRepository, HoldingEdgeRow } from './graph.repository';
import { GraphService } from './graph.service';

const HOLDINGS: HoldingEdgeRow[] = [
  { symbol: 'AAPL', weight: 0.5, quantity: 10 },
  { symbol: 'MSFT', weight: 0.3, quantity: 5 },
  { symbol: 'XOM', weight: 0.2, quantity: 8 },
];

function graphWithFakes() {
  const model = {
    asOf: '2026-11-25',
    correlation: (a: string, b: string) => (a === 'XOM' || b === 'XOM' ? 0.1 : 0.9),
  };
  const maintenance = {
    ensureFresh: jest.fn(async () => undefined),
    ingestNews: jest.fn(async () => undefined),
    version: () => ({ asOf: model.asOf, newsThrough: '2026-11-26T10:00:00.000Z' }),
    model: async () => model as unknown as CorrelationModel,
    weighed: jest.fn(async () => HOLDINGS),
  };
  const repository = {
    holdings: jest.fn(async () => HOLDINGS),
    coMovementAmong: async () => [{ a: 'AAPL', b: 'MSFT', correlation: 0.9 }],
    indirectNews: jest.fn(async () => []),
  };
  const clock: Clock = { now: () => new Date('2026-11-26T15:00:00Z') };
  const sut = new GraphService(
    repository as unknown as GraphRepository,
    maintenance as unknown as GraphMaintenance,
    clock,
    new Metrics(),
  );
  return { sut, maintenance, repository };
}

describe('GraphService cluster concentration (the risk figures)', () => {
  it('answers the exposure’s clusters without bringing news into the graph or walking it', async () => {
    const { sut, maintenance, repository } = graphWithFakes();
    const recordHoldings = jest.fn(async () => undefined);

    const concentration = await sut.clusterConcentration(7, 3, recordHoldings);

    expect(concentration).toEqual({
      largestClusterWeight: 0.8,
      largestClusterMembers: ['AAPL', 'MSFT'],
      effectiveBets: expect.any(Number),
    });
    expect(recordHoldings).toHaveBeenCalledTimes(1);
    expect(maintenance.ensureFresh).toHaveBeenCalled();
    expect(maintenance.ingestNews).not.toHaveBeenCalled();
    expect(repository.indirectNews).not.toHaveBeenCalled();
    const exposure = await sut.exposure(7, 3, recordHoldings);
    expect(concentration.effectiveBets).toBe(exposure.effectiveBets);
    expect(repository.holdings).toHaveBeenCalledTimes(2);
  });

  it('shares the cluster view with the exposure of the same holdings, recording none again', async () => {
    const { sut, repository, maintenance } = graphWithFakes();
    const exposure = await sut.exposure(7, 3, async () => undefined);
    const recordHoldings = jest.fn(async () => undefined);
    await sut.clusterConcentration(7, 3, recordHoldings);
    await sut.clusterConcentration(7, 3, recordHoldings);
    await sut.accountClusterConcentration(7, 1, 3, []);
    await sut.accountClusterConcentration(7, 1, 3, []);

    expect(repository.holdings).toHaveBeenCalledTimes(1);
    expect(recordHoldings).not.toHaveBeenCalled();
    expect(maintenance.weighed).toHaveBeenCalledTimes(1);
    expect(exposure.clusters[0].members.map(({ symbol }) => symbol)).toEqual(['AAPL', 'MSFT']);
  });
});

describe('GraphService exposure', () => {
  it('records the holdings of a ledger version once: a kept answer for it is not written again', async () => {
    const { sut, repository } = graphWithFakes();
    const recordHoldings = jest.fn(async () => undefined);
    const first = await sut.exposure(7, 3, recordHoldings);
    const again = await sut.exposure(7, 3, recordHoldings);
    expect(again).toEqual(first);
    expect(recordHoldings).toHaveBeenCalledTimes(1);
    expect(repository.holdings).toHaveBeenCalledTimes(1);
    await sut.exposure(7, 4, recordHoldings);
    expect(recordHoldings).toHaveBeenCalledTimes(2);
  });
});
