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

  it('minimal: no portfolio tool is offered', () => {
    expect(toolsFor('minimal').map((tool) => tool.name)).toEqual([
      'quote',
      'batch_quotes',
      'market_summary',
      'news',
      'symbol_search',
    ]);
    expect(toolsFor('limited').map((tool) => tool.name)).toContain('portfolio_summary');
  });
});
