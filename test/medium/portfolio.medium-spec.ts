import { FakeClock } from '../fakes/clock';
import { MediumModule } from './medium-module';
import { cashRules } from './portfolio-cash.medium-cases';
import { costBasisRules } from './portfolio-cost-basis.medium-cases';
import { ledgerRules } from './portfolio-ledger.medium-cases';
import { lotRules } from './portfolio-lots.medium-cases';
import { bootPortfolio, PortfolioTier } from './portfolio-module';

/** The portfolio's rules and figures through its services, on one booted PortfolioModule. */
describe('PortfolioModule on PostgreSQL', () => {
  const clock = new FakeClock();
  let medium: MediumModule;

  beforeAll(async () => {
    medium = await bootPortfolio(clock);
  });
  afterAll(() => medium.close());

  const tier: PortfolioTier = { clock, medium: () => medium };
  ledgerRules(tier);
  cashRules(tier);
  costBasisRules(tier);
  lotRules(tier);
});
