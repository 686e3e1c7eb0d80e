import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AssistantTools } from '../../tools/assistant-tools.service';
import type { MarketGraphTools } from '../../tools/market-graph-tools.service';
import type { ChatTurn } from '../chat-engine';
import { OfflineEngine } from './offline-engine';

const universe = JSON.parse(
  readFileSync(join(__dirname, '../../../../../data/replay/universe.json'), 'utf8'),
) as { stocks: { symbol: string; name: string }[] };

/** Understanding reads only the symbol directory and today's date; no tool is asked for data. */
const freshEngine = () =>
  new OfflineEngine(
    {
      symbolDirectory: () => Promise.resolve(universe.stocks),
      today: () => '2026-11-26',
    } as unknown as AssistantTools,
    {} as MarketGraphTools,
  );

const history = (...pairs: [string, string][]): ChatTurn['history'] =>
  pairs.flatMap(([question, answer]) => [
    { role: 'user' as const, content: question },
    { role: 'assistant' as const, content: answer },
  ]);

describe('conversation state derived from the stored messages alone', () => {
  const cases: { name: string; history: ChatTurn['history']; message: string; expected: object }[] = [
    {
      name: 'an ellipsis keeps the intent with the new company',
      history: history(['How is Apple doing?', 'Apple Inc. (AAPL) is at $93.99, +$0.29 (+0.31 %).']),
      message: 'and Microsoft?',
      expected: { intent: 'stock_quote', entities: expect.objectContaining({ symbols: ['MSFT'] }) },
    },
    {
      name: '"it" is the holding the last answer was about',
      history: history([
        "what's my biggest position?",
        'Your largest position is NEE at 19.58 % of the portfolio; you hold 11 positions.',
      ]),
      message: 'how many shares of it do I have?',
      expected: { intent: 'holding', entities: expect.objectContaining({ symbols: ['NEE'] }) },
    },
    {
      name: '"what about last year?" moves the realized gains to the previous year',
      history: history(['What gains did I realize this year?', 'In 2026 your sells realized +$156.80.']),
      message: 'what about last year?',
      expected: { intent: 'realized', year: 2025 },
    },
    {
      name: '"why?" after a refusal explains the same rule',
      history: history(['Sell all my AAPL now', 'I never trade: …']),
      message: 'why?',
      expected: { intent: 'refusal', detail: true, refusal: expect.objectContaining({ id: 'trade_order' }) },
    },
  ];

  it.each(cases)('$name, the same on a fresh instance (a restart or another one)', async (row) => {
    const first = await freshEngine().understand(row.message, row.history);
    const second = await freshEngine().understand(row.message, row.history);
    expect(first).toMatchObject(row.expected);
    expect(second).toEqual(first);
  });

  it('without the stored messages a follow-up has nothing to resolve against', async () => {
    const alone = await freshEngine().understand('and Microsoft?', []);
    expect(alone.detail).toBe(false);
    const why = await freshEngine().understand('why?', []);
    expect(why.intent).toBe('unknown');
  });
});
