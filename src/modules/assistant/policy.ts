/**
 * What the assistant declines, and how: one table for both engines. The offline engine answers a
 * matching question with the rule's reply; the model engine's system prompt carries every rule's
 * `instruction` (docs/assistant.md shows the same table).
 */
export interface PolicyRule {
  id: 'insider_information' | 'trade_order' | 'tax_legal_advice' | 'prediction' | 'personal_recommendation';
  /** What the rule covers, as the docs and the model's system prompt state it. */
  instruction: string;
  /** Phrasings that make a question fall under the rule; the first matching rule applies. */
  patterns: RegExp[];
  reply: string;
}

export const TRANSACTIONS_ROUTE = 'POST /api/v1/portfolio/transactions';

export const POLICY_RULES: readonly PolicyRule[] = [
  {
    id: 'insider_information',
    instruction:
      'Material non-public information (a tip before earnings, a friend at the company, a leak): name it and decline; trading on it is insider trading.',
    patterns: [
      /\b(insider (?:info|information|tip|knowledge)|inside (?:info|information|tip|scoop)|non-?public|not (?:yet )?(?:public|announced)|(?:hasn'?t|has not|isn'?t|is not) (?:been )?(?:announced|public)|before (?:it'?s|it is|the news is|they) (?:announced|public|announce)|confidential (?:info|information|numbers|results)|leaked|a tip (?:from|about|that|before)|got a tip|heard (?:from|that) (?:a|my) (?:friend|contact|cousin|buddy|source|brother|sister)|(?:friend|cousin|buddy|contact|brother|sister) (?:at|who works (?:at|for)|working at|inside)|trade (?:on|before) (?:the )?(?:tip|news|announcement|earnings)|before (?:the )?(?:earnings|merger|deal) (?:is|are|gets?) (?:announced|public|out))/i,
    ],
    reply:
      "I cannot help with trading on material non-public information: buying or selling on a tip that is not public yet is insider trading, which is illegal. I can show what is public: a stock's quote and its news.",
  },
  {
    id: 'trade_order',
    instruction: `An order to buy, sell or otherwise trade: say you never trade (every tool only reads) and point to ${TRANSACTIONS_ROUTE} for recording a trade made with a broker.`,
    patterns: [
      /^\W*(?:ok(?:ay)?,? |hey,? |please |pls |now |just |go ahead and |(?:can|could|will) you (?:please )?)?(?:buy|sell|short|purchase|dump|liquidate|unload|execute|place|cancel)\b(?! or\b)/i,
      /\b(?:place|put in|submit|execute|make|enter|cancel) (?:an? |the |my |this )?(?:buy |sell |limit |market |stop )?(?:order|trade)s?\b/i,
      /\b(?:sell|buy|dump|liquidate|unload) (?:all|everything|half|the rest|\d+)\b.{0,40}\b(?:for me|now|please|immediately|asap|today)\b/i,
      /\b(?:sell|buy|dump|liquidate) (?:all (?:of )?)?my \S+ (?:now|for me|immediately|asap)\b/i,
      /\bsell all my\b|\bsell everything\b/i,
      /\b(?:can|could|will) you (?:please )?(?:buy|sell|trade|short|purchase)\b/i,
    ],
    reply: `I never trade: I can only read your data, and cannot place, change or cancel an order. To record a trade you made with your broker, use ${TRANSACTIONS_ROUTE}.`,
  },
  {
    id: 'tax_legal_advice',
    instruction:
      "Tax or legal advice for the user's situation: refer to a tax professional or lawyer; general educational facts (short- vs long-term gains, what a wash sale is) are fine.",
    patterns: [
      /\b(?:avoid|evade|dodge|escape|reduce|lower|minimi[sz]e|cut|skip|get out of|not pay|pay less|pay no|beat) (?:my |paying |on |the |any )?(?:\w+ ){0,2}(?:taxe?s?|tax bill|irs)\b/i,
      /\b(?:tax|legal|lawyer|attorney|irs) (?:advice|question|help|strategy|trick|loophole)s?\b/i,
      /\bshould i .{0,40}\b(?:for|because of|due to) (?:the )?tax(?:es)?\b/i,
      /\b(?:is it legal|legally|can i deduct|deductible|file my taxes|my tax return|report (?:this|it|them) to the irs|estate planning|inheritance tax|hide (?:it|money|gains) from)\b/i,
      /\bhow much (?:tax|taxes) (?:do|will|would|should|must) i\b/i,
      /\b(?:sue|lawsuit|legal action)\b/i,
    ],
    reply:
      'I cannot give tax or legal advice for your situation: please ask a tax professional or a lawyer. As general information: in the US, gains on shares held one year or less are short-term and taxed like ordinary income, longer holdings are long-term; your realized gains by year are at GET /api/v1/portfolio/realized.',
  },
  {
    id: 'prediction',
    instruction:
      'Guarantees or predictions of prices, returns or the market: say nobody can promise them and offer what has happened (moves, returns, risk figures).',
    patterns: [
      /\bguarantee\w*|\bpredict\w*|\bforecast\w*|\bprophes\w*|\bcrystal ball\b/i,
      /\bwill (?:\S+ ){0,4}(?:go up|go down|rise|fall|drop|crash|rally|double|triple|recover|bounce back|moon|beat the market|hit|reach|keep (?:going|rising|falling)|be (?:up|down|higher|lower|worth))\b/i,
      /\b(?:is|are) (?:\S+ ){0,3}going to (?:go up|go down|rise|fall|drop|crash|rally|double|recover|bounce|moon|be (?:up|down|higher|lower))\b/i,
      /\bwhere will\b|\bwhat will (?:\S+ ){0,4}be (?:worth|at)\b|\bprice target\b|\bsure thing\b|\bcan'?t lose\b|\bcannot lose\b|\brisk[- ]free (?:return|profit|gain)s?\b|\bno risk\b/i,
      /\bnext (?:week|month|year)'?s? (?:price|return|move)\b|\b(?:tomorrow|next week|next month|next year)\b.{0,30}\b(?:price|go up|go down|rise|fall|crash)\b/i,
    ],
    reply:
      'Nobody can guarantee or predict prices or returns, and I do not make forecasts. I can show you what has happened: recent moves, your returns over a period and your risk figures (volatility, beta, value at risk).',
  },
  {
    id: 'personal_recommendation',
    instruction:
      'A personal recommendation to buy, sell or hold a security (or what to invest in): decline, and offer the facts to decide with (the position, its P&L, news, risk).',
    patterns: [
      /\bshould i (?:\S+ )?(?:buy|sell|invest|get into|get out|add|dump|short|hold|keep|put|move|double down|take (?:my )?profits?|cash out|load up|bail)\b/i,
      /\b(?:is|are) (?:\S+ ){0,3}(?:a )?(?:good|bad|great|smart|safe|wise) (?:buy|sell|investment|bet|pick|stock to (?:buy|own))\b/i,
      /\bwhat (?:stocks?|shares|companies) (?:should|do you think i should|would you) (?:i )?(?:buy|sell|invest in|pick)\b|\bwhat should i (?:buy|sell|invest in)\b/i,
      /\b(?:recommend|suggest)(?: me)? (?:a |some |any )?(?:stocks?|shares|investments?|funds?|etfs?)\b|\bwhich (?:stocks?|one|shares|company) (?:should|would you) (?:i )?(?:buy|sell|pick|invest)/i,
      /\b(?:buy or sell|sell or hold|buy or hold|hold or sell|keep or sell|sell or keep)\b|\bwhere should i (?:invest|put my money)\b|\bgive me (?:a |some )?(?:stock )?(?:tips?|picks?)\b|\bworth buying\b|\b(?:good )?time to (?:buy|sell)\b|\bwould you (?:buy|sell|invest)\b/i,
    ],
    reply:
      "I cannot tell you whether to buy, sell or hold: that would be a personal recommendation. I can give you the facts to decide with: your position and its P&L, the stock's move and news, and your portfolio's risk.",
  },
];

/** The first rule a question falls under, or null. */
export function policyFor(text: string): PolicyRule | null {
  return POLICY_RULES.find((rule) => rule.patterns.some((pattern) => pattern.test(text))) ?? null;
}

/** Off-topic questions get one polite line and what the assistant can do. */
export const OFF_TOPIC_LINE = "I can't answer that one. I can tell you:";

/** The rules as the model engine's system prompt states them. */
export function policyPrompt(): string {
  return [
    'Rules you always follow (the same rules as the built-in assistant):',
    ...POLICY_RULES.map((rule) => `- ${rule.instruction}`),
    "- Anything unrelated to investing or the user's portfolio: one polite line saying so, then what you can answer.",
    '- Every figure you state comes from a tool result of this turn; never invent one.',
  ].join('\n');
}
