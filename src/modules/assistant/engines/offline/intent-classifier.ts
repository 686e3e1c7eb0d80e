import { ExtractedEntities } from './entity-extractor';

export const INTENTS = [
  'portfolio_value',
  'portfolio_performance',
  'best_worst',
  'risk',
  'concentration',
  'market_movers',
  'stock_quote',
  'stock_news',
  'compare_stocks',
  'rebalance',
  'preferences',
  'help',
  'holding',
  'cash',
  'income',
  'realized',
  'transactions',
  'watchlist',
  'glossary',
  'refusal',
  'market_graph',
  'unknown',
] as const;
export type Intent = (typeof INTENTS)[number];

type Rule = [RegExp, number];

/** Intents recognised by their own cue patterns (below) before the scored cues. */
type NewIntent =
  'holding' | 'cash' | 'income' | 'realized' | 'transactions' | 'watchlist' | 'glossary' | 'refusal';

/** The user's own position in a named company: needs a symbol (or one from the conversation). */
export const HOLDING_WITH_SYMBOL =
  /\b(?:do i (?:still |even |actually )?(?:own|have|hold)|i (?:still )?(?:own|hold)|have i got|am i (?:still )?(?:up|down|in the (?:red|green)|making|losing|ahead|behind|long)|in the (?:red|green)|under ?water|(?:my|mine)\b.{0,30}\b(?:position|stake|shares|holding|lots?|investment)|(?:gain|loss|profit|p&l|pnl|return) on (?:my|it|them|that)|how (?:is|are) my|(?:have|did) i (?:made|make|lost|earned|gained)|(?:made|make|making|lost|losing|profit|gain|gained|earned) (?:on|from|in) (?!my (?:sales|portfolio)|selling|sales)|how much of my (?:portfolio|money|holdings))\b/i;
/** Questions about a position that make sense with the conversation's symbol too. */
export const HOLDING_ALONE =
  /\b(?:how (?:many|much) (?:shares|stocks|units)|(?:shares|units) (?:do|have|did) i|what did i pay|i paid|paid for|cost basis|(?:average|avg|my) (?:cost|price|entry)|cost per share|entry price|bought (?:it|them|those|that) (?:at|for)|my lots?|tax lots?)\b/i;
const CASH = /\b(?:cash|buying power|uninvested|dry powder|money (?:left|available|sitting))\b(?! flow)/i;
const INCOME =
  /\b(?:dividends?|divs|divvies|income|interest (?:earned|paid|received|income)|(?:receive|get|got|earn)\w* (?:any )?interest|payouts?|distributions?)\b/i;
const REALIZED =
  /(?<!un)\b(?:realized|realised|realize|realise|realizd)\b|\b(?:lock(?:ed)? in|booked|taxable gains?|capital gains?)\b|\b(?:from|by) (?:selling|sales|my sales)\b|\b(?:gains?|profits?|losses|made|lost) (?:from|on|by|with) (?:my )?(?:sales|selling|sells|what i sold|the shares i sold)\b|\bsold .{0,30}\b(?:for a|at a) (?:profit|gain|loss)\b/i;
const TRANSACTIONS =
  /\b(?:what (?:did|have) i (?:buy|bought|sell|sold|purchase|purchased|trade|traded|do)|did i (?:buy|sell|trade)|when did i (?:buy|sell)|what i (?:bought|sold)|my (?:recent |last |latest )?(?:trades|transactions|purchases|buys|sells|orders|activity|deposits?)|(?:last|recent|latest) (?:trades?|transactions?|purchases?|activity|buys?|sells?)|(?:trade|transaction|trading) history|(?:what|which) (?:trades|transactions)|(?:bought|sold) (?:last|this|recently|in)|have i (?:bought|sold|traded))\b/i;
const WATCHLIST = /\bwatch ?-?list\b|\bwatched (?:stocks|symbols)\b|\bstocks i (?:watch|follow)\b/i;
const WATCHLIST_QUOTES = /\b(?:doing|price|prices|quotes?|moving|moved|move|perform\w*|up|down|today|how)\b/i;
const DEFINITIONAL =
  /\b(?:what(?:'s| is| are| does| do|s)\b|whats\b|wat(?:'s| is)\b|define|definition|meaning|means?\b|explain|stand for|eli5|what the heck is|never understood|difference between|how does .* work)/i;
const OWN_FIGURE = /\b(?:my|mine|our|i have|do i)\b/i;

/**
 * Cue phrases per intent with weights. A question scores each intent by the cues it contains;
 * the entities then tip the balance (two symbols → a comparison; one symbol → that stock).
 */
const CUES: Record<Exclude<Intent, 'unknown' | NewIntent>, Rule[]> = {
  portfolio_value: [
    [
      /\b(worth|value|valued|balance|how much (?:money )?(?:do i have|have i got|is (?:my|it))|net worth|total)\b/i,
      2,
    ],
    [/\b(portfolio|holdings|account|investments?|my (?:money|stocks|positions|shares))\b/i, 1],
    [/\b(up or down|gain(?:ed)?|lost|lose|made|make) (?:today|money today)\b/i, 1],
    [/\bhow (?:am i|is my (?:portfolio|account)) doing\b/i, 1],
    [/\bwhat do i (?:own|hold|have)\b|\bmy positions\b|\blist (?:my )?(?:holdings|positions)\b/i, 2],
  ],
  portfolio_performance: [
    [
      /\b(perform(?:ance|ed|ing)?|returns?|return on|gain(?:ed|s)?|growth|grown|grew|made|earned|lost|p&l|pnl|profit)\b/i,
      1.5,
    ],
    [
      /\b(ytd|year[- ]to[- ]date|this year|last (?:year|month|quarter)|past (?:year|month|quarter|\d+ months)|since i (?:started|began|bought|opened)|all[- ]time|over the|three months|3 months|six months|12 months|this month|this quarter)\b/i,
      1.5,
    ],
    [/\b(portfolio|my investments|my holdings|my account|i)\b/i, 0.5],
  ],
  best_worst: [
    [
      /\b(best|worst|top|biggest|largest) (?:performing |performer|performers|winner|winners|loser|losers|gainers?|holdings?|positions?|stocks?|investments?|drag)/i,
      3,
    ],
    [
      /\b(winners?|losers?|laggards?|underperform\w*|outperform\w*|dragging|pulling (?:me|my portfolio) down|doing (?:the )?(?:best|worst)|performing (?:the )?(?:best|worst)|lost the most|gained the most|made the most|weakest|strongest)\b/i,
      3,
    ],
  ],
  risk: [
    [
      /\b(risk\w*|volatil\w*|beta|var\b|value at risk|drawdown|sharpe|sortino|safe|dangerous|aggressive|conservative|tolerance|too risky|swings?)\b/i,
      3,
    ],
  ],
  concentration: [
    [
      /\b(concentrat\w*|diversif\w*|exposure|exposed|allocation|allocated|sectors?|spread|too much (?:in|of)|eggs in one basket|overweight|heavy in|weighting|weights?|breakdown)\b/i,
      3,
    ],
  ],
  market_movers: [
    [/\b(market|markets|s&p|dow|nasdaq|indices|indexes|wall street)\b/i, 2],
    [
      /\b(moved|moving|movers?|gainers?|losers?|up|down|today|happening|happened|doing|rall\w*|sell-?off)\b/i,
      1,
    ],
    [/\b(top|biggest) (?:gainers|losers|movers)\b/i, 2],
  ],
  stock_quote: [
    [
      /\b(price|quote|trading at|trade at|cost|worth|how much is|how (?:is|are|'s) .* doing|doing today|up or down|moved?|change|shares? of)\b/i,
      2,
    ],
  ],
  stock_news: [
    [
      /\b(news|headlines?|articles?|sentiment|said about|saying about|stories|press|heard about|buzz|mood|feeling about|latest on|what's new with|whats new with|anything new)\b/i,
      3,
    ],
  ],
  compare_stocks: [
    [/\b(compare|comparison|versus|vs\.?|better than|or|against|which is better|difference between)\b/i, 2],
  ],
  rebalance: [
    [
      /\b(rebalanc\w*|re-balanc\w*|realign|reallocate|target weights?|trim|drift\w*|adjust my (?:portfolio|holdings|allocation))\b/i,
      4,
    ],
  ],
  preferences: [
    [
      /\b(preferences?|settings?|profile|privacy|explanation style|analysis depth|experience level|what(?: is|'s) my risk tolerance|risk profile|information sources|watchlist|daily summary|alert frequency|what did i (?:choose|pick|set)|my choices)\b/i,
      4,
    ],
  ],
  market_graph: [
    [
      /\b(what else is like|similar to|(?:stocks?|companies|shares) like|similar (?:stocks?|companies)|related (?:stocks?|companies)|peers of|more concentrated than i think|hidden concentration|moves? together|co-?mov\w*|independent bets|indirect\w*)\b/i,
      5,
    ],
  ],
  help: [
    [
      /\b(help|what can you (?:do|answer|tell me)|what do you (?:do|know)|how do(?:es)? (?:this|you) work|commands|options|capabilities|who are you|what are you|example questions|what should i ask)\b/i,
      4,
    ],
  ],
};

const PORTFOLIO_WORDS = /\b(my|i|me|mine|portfolio|holdings?|positions?|investments?|account|own|hold)\b/i;

/**
 * Deterministic intent classification of one question given its entities. Same text, same intent.
 */
export function classifyIntent(
  text: string,
  entities: ExtractedEntities,
  context: { glossaryTerm?: string | null; refused?: boolean } = {},
): Intent {
  if (context.refused) return 'refusal';
  const specific = specificIntent(text, entities, context.glossaryTerm ?? null);
  if (specific) return specific;
  const scores = new Map<Intent, number>();
  for (const [intent, rules] of Object.entries(CUES) as [Exclude<Intent, 'unknown'>, Rule[]][]) {
    const score = rules.reduce((sum, [pattern, weight]) => sum + (pattern.test(text) ? weight : 0), 0);
    if (score > 0) scores.set(intent, score);
  }
  const symbols = entities.symbols.length;
  const named =
    symbols > 0 ||
    (entities.unknownNames.length > 0 && (scores.has('stock_quote') || scores.has('stock_news')));
  const aboutMe = PORTFOLIO_WORDS.test(text);

  if (scores.has('help') && !named && (scores.get('help') ?? 0) >= 4 && text.length < 80) return 'help';
  if (scores.has('market_graph')) return 'market_graph';
  if (scores.has('preferences')) return 'preferences';
  if (scores.has('rebalance')) return 'rebalance';
  if (symbols >= 2 && !scores.has('risk') && !scores.has('concentration') && !scores.has('stock_news')) {
    return 'compare_stocks';
  }
  if (named && scores.has('stock_news')) return 'stock_news';
  if (
    named &&
    !(aboutMe && (scores.has('risk') || scores.has('concentration') || scores.has('best_worst')))
  ) {
    return scores.has('compare_stocks') && symbols >= 2 ? 'compare_stocks' : 'stock_quote';
  }
  if (scores.has('stock_news')) return 'stock_news';
  if (scores.has('best_worst') && aboutMe) return 'best_worst';
  if (scores.has('risk')) return 'risk';
  if (scores.has('concentration')) return 'concentration';
  if (
    scores.has('market_movers') &&
    (!aboutMe || /\b(the )?market\b/i.test(text)) &&
    (scores.get('market_movers') ?? 0) >= 2
  ) {
    return 'market_movers';
  }
  if (
    scores.has('portfolio_performance') &&
    ((entities.period !== null && entities.period !== '1D') || /\b(perform|return)/i.test(text))
  ) {
    return 'portfolio_performance';
  }
  if (scores.has('portfolio_value') || (aboutMe && entities.period === '1D')) return 'portfolio_value';
  if (scores.has('portfolio_performance') && aboutMe) return 'portfolio_performance';
  if (scores.has('help')) return 'help';
  return 'unknown';
}

/** The intents with cues of their own, checked before the scored intents. */
function specificIntent(
  text: string,
  entities: ExtractedEntities,
  glossaryTerm: string | null,
): Intent | null {
  const named = entities.symbols.length > 0;
  const defines =
    glossaryTerm !== null &&
    DEFINITIONAL.test(text) &&
    !named &&
    !/\b(?:doing|today|now|moved?|up|down|trading|at|worth|performing|price|news)\b/i.test(text);
  if (defines && !OWN_FIGURE.test(text)) return 'glossary';
  if (WATCHLIST.test(text)) return WATCHLIST_QUOTES.test(text) ? 'watchlist' : null;
  if (/\bunreali[sz]ed\b/i.test(text) && !named) return 'portfolio_value';
  if (
    /\b(?:largest|biggest) (?:position|holding)s?\b/i.test(text) &&
    !/\b(?:perform|gain|return|winner|loser|drag)/i.test(text)
  ) {
    return 'concentration';
  }
  if (/\brebalanc/i.test(text)) return null;
  if (TRANSACTIONS.test(text) && !HOLDING_ALONE.test(text)) return 'transactions';
  if (HOLDING_ALONE.test(text) || (named && HOLDING_WITH_SYMBOL.test(text))) return 'holding';
  if (REALIZED.test(text)) return 'realized';
  if (INCOME.test(text) && !/\bdividend yield\b/i.test(text)) return 'income';
  if (CASH.test(text)) return 'cash';
  if (glossaryTerm && DEFINITIONAL.test(text) && !named && !/\b(?:my|mine)\b/i.test(text)) return 'glossary';
  return null;
}
