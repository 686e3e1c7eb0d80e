import { redactForModel, toolsFor } from './model-tools';

const summary = {
  total_value: 4525.6,
  day_change_percent: -0.56,
  sectors: [{ sector: 'technology', weight_percent: 40, market_value: 1810.24 }],
  positions: [{ symbol: 'AAPL', quantity: 15, weight_percent: 31.25, unrealized_pnl: -835.95 }],
};

describe('what the model may see', () => {
  it('full: everything', () => {
    expect(redactForModel(summary, 'full')).toEqual(summary);
  });

  it('limited: weights and percentages, no amounts or quantities, at any depth', () => {
    expect(redactForModel(summary, 'limited')).toEqual({
      day_change_percent: -0.56,
      sectors: [{ sector: 'technology', weight_percent: 40 }],
      positions: [{ symbol: 'AAPL', weight_percent: 31.25 }],
    });
  });

  it('limited: only allow-listed keys leave, so a new amount field is dropped too', () => {
    const holding = {
      symbol: 'AAPL',
      held: true,
      quantity: 16,
      cost_basis: 2391.2,
      cost_per_share: 149.45,
      cash_balance: 812.4,
      some_future_amount: 1,
      weight_percent: 17.3,
      lots: [{ acquired_on: '2025-01-06', quantity: 16, cost_per_share: 150.05, unrealized_pnl: -10 }],
    };
    expect(redactForModel(holding, 'limited')).toEqual({
      symbol: 'AAPL',
      held: true,
      weight_percent: 17.3,
      lots: [{ acquired_on: '2025-01-06' }],
    });
  });

  it('minimal: no portfolio tool is offered', () => {
    expect(
      toolsFor('minimal')
        .map((tool) => tool.name)
        .sort(),
    ).toEqual(
      [
        'quote',
        'batch_quotes',
        'market_summary',
        'news',
        'symbol_search',
        'glossary',
        'related_companies',
      ].sort(),
    );
    expect(toolsFor('limited').map((tool) => tool.name)).toContain('portfolio_summary');
  });
});
