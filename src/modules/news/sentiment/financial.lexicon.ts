/**
 * The financial lexicon: hand-written vocabulary of company and market news. Every phrase is a
 * lower-case word sequence as the tokenizer produces it (hyphens split words: "pre-tax" → "pre tax").
 *
 * The scorer does not read sentiment off single words the way general-purpose lexicons do. Most
 * financial statements are neutral facts ("net sales were EUR 5 million"); what makes one positive
 * or negative is usually a change in a quantity whose direction has a known value to the company.
 * So the lexicon is mostly about quantities (metrics), directions of change, and the words that
 * link, weaken, strengthen or reverse them; the words that are sentiment on their own are events
 * (a contract won, a profit warning, layoffs).
 */

/**
 * Which way of change is good. 1: more is better (profit, sales), -1: more is worse (costs, debt),
 * 0: a quantity whose change carries no sentiment by itself (share capital, headcount).
 */
export type Polarity = 1 | -1 | 0;

/** Profit-like and loss-like metrics are one signed scale: a loss is a negative profit. */
export type MetricKind = 'profit' | 'loss' | 'other';

/**
 * How a change word finds the quantity it moves.
 * - `subject`: intransitive, the quantity comes before ("profit fell"); a following quantity is
 *   used when nothing came before ("a fall in profit").
 * - `object`: transitive verbs, the quantity follows ("cut costs"); the preceding quantity is the
 *   fallback ("costs were cut").
 * - `either`: verbs used both ways ("sales increased", "increased its sales"): a quantity right
 *   after the verb wins, else the one before.
 * - `modifier`: comparatives and the particles up/down; they need a quantity next to them
 *   ("higher sales", "shares down 4 %") and say nothing alone ("spent more time", "set up").
 */
export type ChangeRole = 'subject' | 'object' | 'either' | 'modifier';

export type LexiconEntry =
  | { type: 'metric'; polarity: Polarity; kind: MetricKind }
  | { type: 'change'; direction: 1 | -1; role: ChangeRole }
  /** A verb that only says "became": "swung to a loss", "returned to profit". */
  | { type: 'shift' }
  | { type: 'polar'; weight: number }
  | { type: 'steady' }
  | { type: 'negator' }
  | { type: 'scaler'; factor: number }
  | { type: 'contrast' }
  | { type: 'concession' }
  | { type: 'clause-break' }
  | { type: 'comparator' }
  | { type: 'into' }
  | { type: 'magnitude'; factor: number }
  | { type: 'currency' }
  | { type: 'percent' }
  /** "a negative EUR 3 mn", "negative impact": signs the next amount, else a negative word. */
  | { type: 'negative' }
  | { type: 'than' }
  /** "excluding one-offs", "before taxes": the quantity named next qualifies, it is not the subject. */
  | { type: 'qualifier' }
  /** "due to", "thanks to": what follows explains the news rather than being it. */
  | { type: 'cause' }
  /** Orders, contracts and deals: neutral news unless called major, large or significant. */
  | { type: 'deal' }
  | { type: 'inert' };

const entries = new Map<string, LexiconEntry>();

function add(phrases: string, entry: LexiconEntry): void {
  for (const phrase of phrases.split('|')) {
    const key = phrase.trim();
    if (key.length === 0) continue;
    if (entries.has(key)) throw new Error(`Lexicon phrase defined twice: "${key}"`);
    entries.set(key, entry);
  }
}

const metric = (polarity: Polarity, kind: MetricKind = 'other'): LexiconEntry => ({
  type: 'metric',
  polarity,
  kind,
});
const change = (direction: 1 | -1, role: ChangeRole): LexiconEntry => ({ type: 'change', direction, role });
const polar = (weight: number): LexiconEntry => ({ type: 'polar', weight });

// ── Quantities whose rise is good ────────────────────────────────────────────────────────────
add(
  'profit|profits|net profit|operating profit|pre tax profit|pretax profit|gross profit|' +
    'profit before tax|profit before taxes|profit after tax|profit after taxes|profit for the period|' +
    'earnings|net earnings|earnings per share|eps|diluted eps|income|net income|operating income|' +
    'pretax income|pre tax income|ebit|ebitda|ebita|operating result|result|results|net result|' +
    'operating margin|margin|margins|gross margin|profit margin|profitability|return on equity|' +
    'return on investment|return on capital employed|roe|roi|roce|cash flow|operating cash flow|' +
    'free cash flow|net interest income|commission income|fee income|interest income',
  metric(1, 'profit'),
);
add(
  'sales|net sales|revenue|revenues|turnover|net turnover|sales volume|sales volumes|' +
    'comparable sales|like for like sales|orders|order intake|new orders|order book|order backlog|' +
    'backlog|bookings|deliveries|shipments|volume|volumes|output|production|market share|' +
    'demand|traffic|passengers|passenger numbers|subscribers|customers|occupancy|load factor|' +
    'capacity utilisation|capacity utilization|productivity|efficiency|sales growth|growth rate|' +
    'dividend|dividends|dividend per share|guidance|outlook|forecast|forecasts|estimate|' +
    'estimates|target price|price target|rating|valuation|share price|shares|stock|stocks|' +
    'market value|market capitalisation|market capitalization|equity ratio|solvency|liquidity|' +
    'lending|deposits|assets under management|premiums|exports|consumption|index|indices|' +
    'order inflow|visitors|users|capital gain|capital gains|cash|solidity|' +
    'performance|business|operations|activity|activities|employment|jobs|value|fair value|' +
    'share|share prices|stock prices|target|targets|share target|growth forecast|growth target|' +
    'growth outlook|growth estimate|market position|competitive position|financial position|' +
    'balance sheet|capital structure|capital base|capacity|production capacity',
  metric(1),
);

// ── Quantities whose rise is bad ─────────────────────────────────────────────────────────────
add(
  'loss|losses|net loss|operating loss|pre tax loss|pretax loss|loss before tax|' +
    'loss before taxes|loss per share|deficit|net deficit',
  metric(-1, 'loss'),
);
add(
  'cost|costs|expenses|expenditure|operating costs|operating expenses|fixed costs|' +
    'raw material costs|raw material prices|input costs|energy costs|personnel expenses|' +
    'debt|debts|net debt|interest bearing debt|borrowings|liabilities|gearing|leverage|' +
    'unemployment|unemployment rate|inflation|impairments|write downs|writedowns|' +
    'write offs|charges|provisions|bad loans|non performing loans|loan losses|credit losses|' +
    'defaults|delinquencies|inventories|inventory|churn|risk|risks|claims|complaints|' +
    'bankruptcies|vacancy|vacancy rate|tax rate|prices of raw materials',
  metric(-1),
);

// ── Quantities whose change says nothing by itself ───────────────────────────────────────────
add(
  'share capital|number of shares|shares outstanding|voting rights|holding|stake|ownership|' +
    'employees|staff|personnel|workforce|headcount|capital expenditure|capex|investment|' +
    'investments|price|prices|interest rate|interest rates|rate|rates|exchange rate|population|' +
    'taxes',
  metric(0),
);
add('expense ratio|cost ratio|combined ratio|cost income ratio|cost to income ratio|loss ratio', metric(-1));

// ── Directions of change ─────────────────────────────────────────────────────────────────────
add(
  'rise|rises|rose|risen|rising|grow|grows|grew|grown|growing|growth|climb|climbs|climbed|' +
    'climbing|jump|jumps|jumped|surge|surges|surged|soar|soars|soared|gained|rebound|rebounded|' +
    'rebounds|advance|advanced|advances|widen|widens|widened|widening|accelerate|accelerated|' +
    'went up|go up|goes up|gone up|edged up|picked up|ticked up|more than doubled|quadrupled|' +
    'rally|rallied|swell|swelled|expanding|expansion|increasing|upswing|upturn|improve|improves|' +
    'improving|surpass|surpassed|surpasses|exceed|exceeded|exceeds|outpaced|outgrew|recovered|' +
    'recovering|topped|gain|gains|rallies|rallying|outperformed|outperforms',
  change(1, 'subject'),
);
add(
  'increase|increases|increased|double|doubles|doubled|triple|triples|tripled|expand|expands|' + 'expanded',
  change(1, 'either'),
);
add('decrease|decreases|decreased|halve|halves|halved', change(-1, 'either'));
add(
  'fall|falls|fell|fallen|falling|decline|declines|declined|declining|drop|drops|dropped|' +
    'dropping|slip|slips|slipped|slide|slides|slid|sink|sinks|sank|sunk|plunge|plunges|plunged|' +
    'plummet|plummeted|plummets|tumble|tumbled|tumbles|slump|slumped|slumps|dip|dips|dipped|' +
    'shrink|shrinks|shrank|shrunk|shrinking|contracted|contraction|narrow|narrows|narrowed|' +
    'narrowing|went down|go down|goes down|gone down|edged down|ticked down|eased|' +
    'decreasing|downturn|downswing|slowdown|slowed|slow down|' +
    'lost|weaken|weakens|weakening|deteriorate|deteriorates|deteriorating|erode|eroded|eroding|' +
    'diminish|diminished|diminishes|shed|sheds|retreat|retreats|retreated|retreating|lag|lags|' +
    'lagged|lagging|underperformed|underperforms',
  change(-1, 'subject'),
);
add(
  'raise|raises|raised|raising|boost|boosts|boosted|boosting|lift|lifts|lifted|lifting',
  change(1, 'object'),
);
add(
  'cut|cuts|cutting|reduce|reduces|reduced|reducing|reduction|lower|lowers|lowered|lowering|' +
    'trim|trims|trimmed|slash|slashes|slashed|dampen|dampened|dampens|squeezed|squeeze|pressured|' +
    'hurt|hurts',
  change(-1, 'object'),
);
add(
  'higher|more|bigger|larger|stronger|up|above|higher than expected|larger than expected|' +
    'bigger than expected|higher than anticipated|larger than anticipated',
  change(1, 'modifier'),
);
add(
  'less|fewer|smaller|weaker|down|below|lower than expected|smaller than expected|' +
    'lower than anticipated|smaller than anticipated',
  change(-1, 'modifier'),
);
add('swung|swing|swings|turned|turn|turns|moved|move|moves|returned|return|returns|went|came', {
  type: 'shift',
});

add(
  'unchanged|flat|stable|steady|remained at|remain at|remains at|at the same level|' +
    'on a par|on par|level with|in line with|stayed at|held steady|remaining at',
  { type: 'steady' },
);

// ── Events that carry sentiment on their own ─────────────────────────────────────────────────
add(
  'beat expectations|beat estimates|beat forecasts|beats expectations|beats estimates|' +
    'exceeded expectations|exceeded estimates|exceeds expectations|above expectations|' +
    'above estimates|above forecasts|better than expected|better than anticipated|' +
    'stronger than expected|ahead of expectations|ahead of forecasts|topped estimates|' +
    'record profit|record high|record sales|record result|record year|record quarter|' +
    'strengthen|strengthens|strengthening|all time high|year high|week high|month high|best ever|upgrade|upgraded|upgrades|' +
    'raised to buy|to buy from|outperform|overweight|buy rating|buy recommendation|' +
    'accumulate recommendation|positive recommendation|returned to profit|return to profit|' +
    'back in the black|in the black|turned profitable|turnaround|won|wins|win|awarded|' +
    'has been awarded|was awarded|secured|secures|improved|improvement|improvements|' +
    'strengthened|successfully|succeeded|success|successful|savings|cost savings|' +
    'gains ground|gained ground|gaining ground|well received|well integrated|best year|' +
    'annual savings|yearly savings|satisfied|pleased|delighted|well positioned|progressed well',
  polar(0.9),
);
add(
  'strong|strongly|robust|healthy|favourable|favorable|positive|positively|optimistic|' +
    'confident|encouraging|good|excellent|impressive|strongest|best|profitable|better|benefited|' +
    'benefitted|opportunities|milestone|breakthrough|competitiveness|efficient|record|' +
    'additional orders|follow on order|repeat order|order worth|contract worth|' +
    'signed a contract|signed an agreement|signs contract|signs agreement|investment grade|' +
    'dividend increase|special dividend|share buyback|buyback|share repurchase|synergy|' +
    'synergies|creates jobs|create jobs|new jobs|hire|hiring|welcomed|upbeat|bullish|recovery|' +
    'momentum|cheaper|breakeven|break even|gain of|gains of',
  polar(0.45),
);
add(
  'miss|missed|misses|below expectations|below estimates|below forecasts|short of expectations|' +
    'short of estimates|fell short|falls short|worse than expected|weaker than expected|' +
    'weaker than anticipated|disappointing|disappointed|disappointment|profit warning|warns|warned|warning|downgrade|' +
    'downgraded|downgrades|cut to sell|to sell from|underperform|underweight|sell rating|' +
    'sell recommendation|in the red|into the red|loss making|swung to a loss|turned to a loss|' +
    'lay off|lays off|laid off|laying off|layoff|layoffs|lay offs|job cuts|cut jobs|cuts jobs|' +
    'cutting jobs|job losses|redundancies|redundancy|dismissals|temporary layoffs|close down|' +
    'closes down|closed down|closure|closures|shut down|shuts down|shutdown|plant closure|' +
    'bankruptcy|bankrupt|insolvency|insolvent|receivership|default|defaulted|lawsuit|lawsuits|' +
    'sued|sues|litigation|class action|fraud|scandal|probe|investigation|fined|penalty|' +
    'penalties|recall|recalls|recalled|writedown|write down|written down|write off|' +
    'written off|impairment|impairment charge|going concern|suspended|suspends|halted|halts|' +
    'cancelled|canceled|cancels|terminated|delisted|collapse|collapsed|crisis|recession|' +
    'loses ground|lost ground|losing ground|hit a snag|hits a snag|fine of|pay a fine|' +
    'headcount reduction|staff reduction|staff reductions|personnel reduction|' +
    'personnel reductions|workforce reduction|job reduction|job reductions|reduction of jobs|' +
    'reduction of personnel|make redundant|made redundant|lose their jobs|' +
    'lost their jobs|cut staff|cuts staff|reduce staff|reduce personnel|reduce its workforce|' +
    'reduce its personnel|reduce its staff|' +
    'meltdown|lowest|worst|deteriorated|deterioration|year low|week low|month low|record low|' +
    'all time low|weakened|hit by|hurt by|blamed|blaming|threatens|threatened',
  polar(-0.9),
);
add(
  'strike|strikes|walkout|struggled|struggling|struggles|threatening|poorest|weak|weakness|sluggish|soft|softer|subdued|slowing|slower|difficult|tough|challenging|' +
    'headwinds|pressures|uncertain|uncertainty|uncertainties|volatile|volatility|negatively|' +
    'pessimistic|cautious|problems|problem|difficulties|bad|poor|poorly|adverse|adversely|' +
    'unfavourable|unfavorable|cloud|clouds|burden|burdened|damage|damaged|damages|costly|' +
    'expensive|shortage|shortages|excess capacity|overcapacity|cutbacks|downsizing|' +
    'unprofitable|failed|failure|fail|fails|jeopardise|jeopardize|bearish|fears|concerns about|' +
    'concerns over|worries|worried|risk of|threat|suffering|suffered|suffer|suffers|painful|' +
    'trouble|troubles|badly',
  polar(-0.45),
);

// ── Modifiers ────────────────────────────────────────────────────────────────────────────────
add(
  "not|no|never|without|neither|nor|cannot|can't|didn't|doesn't|don't|isn't|wasn't|" +
    "aren't|weren't|won't|wouldn't|hasn't|haven't|hadn't|couldn't|shouldn't|failed to|" +
    'fail to|fails to|unable to|no longer|lack of|lacked|absence of|nothing|none',
  { type: 'negator' },
);
add(
  'sharply|significantly|substantially|considerably|markedly|dramatically|very|highly|clearly|' +
    'much|steeply|heavily|massive|massively|huge|hugely|major|greatly|extremely|remarkably|' +
    'notably|rapidly|fast|well|far|tremendously|deeply|severely|seriously|significant|' +
    'substantial|considerable|big|sizeable|sizable|large|largest|biggest',
  { type: 'scaler', factor: 1.5 },
);
add(
  'slightly|somewhat|marginally|modestly|moderately|a little|a bit|partly|partially|mildly|' +
    'fractionally|barely|slight|modest|small|minor|little|marginal|nearly|almost',
  { type: 'scaler', factor: 0.6 },
);

// ── Sentence structure ───────────────────────────────────────────────────────────────────────
add('but|however|nevertheless|nonetheless|on the other hand', { type: 'contrast' });
add('although|though|even though|despite|in spite of|notwithstanding|albeit', { type: 'concession' });
add('while|whereas', { type: 'clause-break' });
add(
  'compared to|compared with|as compared to|as compared with|in comparison to|' +
    'in comparison with|versus|vs|against|as against|from',
  { type: 'comparator' },
);
add('to|into', { type: 'into' });
add('than', { type: 'than' });
add('due to|because of|owing to|as a result of|driven by|thanks to|on the back of|amid', {
  type: 'cause',
});
add('excluding|including|excl|incl|before|after|net of|adjusted for|exclusive of|inclusive of', {
  type: 'qualifier',
});
add('order|contract|contracts|deal|deals|agreement|agreements|framework agreement', {
  type: 'deal',
});

// ── Amount syntax ────────────────────────────────────────────────────────────────────────────
add('thousand|thousands|k|tsd', { type: 'magnitude', factor: 1e3 });
add('m|mn|mln|million|millions|mio|mill', { type: 'magnitude', factor: 1e6 });
add('bn|bln|billion|billions|b', { type: 'magnitude', factor: 1e9 });
add('trillion|tn|trn', { type: 'magnitude', factor: 1e12 });
add(
  '$|€|£|¥|eur|euro|euros|usd|dollar|dollars|us dollars|gbp|pound|pounds|sterling|sek|nok|dkk|' +
    'chf|jpy|yen|rub|rubles|roubles|pln|zloty|lats|kroons|kronor|krona|kroner|litas|lvl|eek|' +
    'ltl|cny|yuan|rmb|inr|rupees|cents|cent|pence|p|euro cents|crowns|kroon',
  { type: 'currency' },
);
add('%|percent|per cent|pct|pc|percentage points|percentage point|basis points|bps', {
  type: 'percent',
});
add('negative|minus', { type: 'negative' });

// Phrases that contain a listed word but mean something else; matching them as inert keeps the
// word from firing ("up to 100 units", "set up a unit", "stepped down as CEO").
add(
  'not only|no doubt|not least|nothing but|no later than|not later than|up to|set up|sets up|' +
    'setting up|drawn up|draw up|took up|take up|takes up|taking up|came up|come up|comes up|' +
    'make up|makes up|made up|opens up|open up|opened up|sign up|signed up|follow up|' +
    'followed up|start up|start ups|wrap up|back up|going up|built up|build up|step down|' +
    'steps down|stepped down|stepping down|broken down|break down|breaks down|down payment|' +
    'more or less|at least|at most|of record|record date|shareholders of record|' +
    'free of charge|in charge|charge of|in the long run|to date|from time to time|' +
    'leading position|as well|well known|well as|for good|good will|goodwill|strike price|' +
    'cut off|cutoff|up and running|cost effective|cost efficient|low cost|price list|' +
    'higher education|risk management|steady state|lower saxony|default settings|by default|' +
    'loss of life|gain access|gains access|gained access|win win|interest in|growth markets|' +
    'growth market|growth strategy|growth company|growth companies|new record|rating agency|' +
    'performance management|business area|business areas|business unit|business units|' +
    'index fund|stock exchange|stock exchange release|share issue|number one|return on|' +
    'in return|in turn|turn key|turnkey|came into force|come into force|home improvement|' +
    'cold cuts|narrow down|contract manufacturer|contract manufacturers|contract manufacturing|' +
    'contract electronics|contract research|going down|above all|as above|below ground|' +
    'closure of the transaction|closure of the deal|savings account|savings accounts|' +
    'savings bank|capacity upgrade|network upgrade|system upgrade|software upgrade|' +
    'soft drink|soft drinks|share of',
  { type: 'inert' },
);

export interface LexiconPhrase {
  words: readonly string[];
  entry: LexiconEntry;
}

/** Lexicon entries indexed by their first word, longest phrase first. */
export const LEXICON_BY_FIRST_WORD: ReadonlyMap<string, readonly LexiconPhrase[]> = (() => {
  const index = new Map<string, LexiconPhrase[]>();
  for (const [phrase, entry] of entries) {
    const words = phrase.split(' ');
    const bucket = index.get(words[0]) ?? [];
    bucket.push({ words, entry });
    index.set(words[0], bucket);
  }
  for (const bucket of index.values()) bucket.sort((a, b) => b.words.length - a.words.length);
  return index;
})();

export function lexiconEntry(phrase: string): LexiconEntry | undefined {
  return entries.get(phrase);
}
