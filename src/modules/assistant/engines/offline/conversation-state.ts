import type { ChatTurn } from '../chat-engine';
import type { ExtractedEntities, Period } from './entity-extractor';
import type { PolicyRule } from '../../policy';
import type { Intent } from './intent-classifier';

/**
 * What a conversation is about so far: derived afresh from its stored messages on every turn
 * (no memory in the process), so it is the same after a restart and on any instance.
 */
export interface ConversationState {
  intent: Intent | null;
  /** The symbols last asked about, or the holding an answer was about ("your largest is AAPL"). */
  symbols: string[];
  period: Period | null;
  year: number | null;
  term: string | null;
  /** The policy rule the last declined question fell under, for \"why?\". */
  refusal: PolicyRule | null;
}

export const EMPTY_STATE: ConversationState = {
  intent: null,
  symbols: [],
  period: null,
  year: null,
  term: null,
  refusal: null,
};

/** One question understood in its conversation. */
export interface Understanding {
  intent: Intent;
  entities: ExtractedEntities;
  /** A calendar year the question names ("last year", "in 2025"), for realized gains. */
  year: number | null;
  term: string | null;
  /** "why?", "tell me more": the previous answer again, with its explanation. */
  detail: boolean;
  /** Typed names corrected or close to a company, for "did you mean …?". */
  didYouMean: { typed: string; symbol: string; name: string }[];
  refusal: PolicyRule | null;
}

/** Understands one message given the state before it. */
export type Understand = (message: string, state: ConversationState) => Understanding;

const FOLLOW_UP_WHY =
  /^\W*(?:(?:but |and |so |ok(?:ay)?,? )?(?:why|how come|how so|why is that|why not|why so)|(?:tell|show) me more|more (?:detail|details|info|information|please)|(?:can you |could you |please )?(?:explain|elaborate|expand)(?: on)?(?: that| this| it| more| please)?|go on|details?|what does that mean|say more|in more detail|break (?:it|that) down|more)\W*$/i;
export const PRONOUN =
  /\b(?:it|its|it's|that one|this one|that stock|this stock|that company|the company|the stock|that position|this position|them|they|those|these|both|same one)\b/i;
const PLURAL_PRONOUN = /\b(?:them|they|those|these|both)\b/i;
const ELLIPSIS =
  /^\W*(?:and|what about|how about|same for|and for|what of|ok(?:ay)?,? (?:and|what about)|also|then|now|but)\b/i;

const SYMBOL_INTENTS: readonly Intent[] = ['stock_quote', 'stock_news', 'holding', 'compare_stocks'];
const PERIOD_INTENTS: readonly Intent[] = [
  'portfolio_performance',
  'realized',
  'income',
  'transactions',
  'portfolio_value',
];
const NOT_CARRIED: readonly Intent[] = ['help', 'unknown'];

/**
 * The state after the stored turns, oldest first: each user message is understood in the state
 * before it, and the answer after it may name the holding it was about.
 */
export function stateOf(
  history: ChatTurn['history'],
  understand: Understand,
  symbolsIn: (text: string) => string[],
): ConversationState {
  let state = EMPTY_STATE;
  let pending: Understanding | null = null;
  for (const message of history) {
    if (message.role === 'user') {
      pending = understand(message.content, state);
      state = advance(state, pending, []);
    } else if (pending) {
      state = advance(
        state,
        pending,
        pending.entities.symbols.length === 0 ? symbolsIn(message.content) : [],
      );
      pending = null;
    }
  }
  return state;
}

function advance(state: ConversationState, turn: Understanding, answerSymbols: string[]): ConversationState {
  if (turn.intent === 'refusal') return { ...state, intent: 'refusal', refusal: turn.refusal };
  if (turn.intent === 'unknown' || turn.intent === 'help') return state;
  const symbols =
    turn.entities.symbols.length > 0
      ? turn.entities.symbols
      : answerSymbols.length > 0
        ? answerSymbols.slice(0, 1)
        : state.symbols;
  return {
    intent: turn.intent,
    symbols,
    period: turn.entities.period ?? state.period,
    year: turn.year ?? (turn.entities.period ? null : state.year),
    term: turn.term ?? state.term,
    refusal: null,
  };
}

/**
 * Resolves a question against the conversation: "why?" repeats the last answer with its
 * explanation, a pronoun takes the last symbols, and an ellipsis ("and Microsoft?", "over a
 * year?") keeps the last intent with what the new words change.
 */
export function resolveFollowUp(
  text: string,
  own: Understanding,
  state: ConversationState,
  ownIsWeak: boolean,
): Understanding {
  if (state.intent === null || NOT_CARRIED.includes(state.intent)) return withPronoun(text, own, state);
  if (FOLLOW_UP_WHY.test(text)) {
    return {
      ...own,
      intent: state.intent,
      entities: { ...own.entities, symbols: state.symbols, period: state.period },
      year: state.year,
      term: state.term,
      refusal: state.refusal,
      detail: true,
    };
  }
  const words = text.trim().split(/\s+/).length;
  const elliptic = ELLIPSIS.test(text) || words <= 5;
  if (elliptic && state.intent === 'glossary' && own.term && !/\b(?:my|mine)\b/i.test(text)) {
    return { ...own, intent: 'glossary' };
  }
  if (state.intent === 'refusal') return withPronoun(text, own, state);
  if (elliptic && ownIsWeak) {
    const entities = own.entities;
    const newSymbols = entities.symbols.length > 0;
    const newTime = entities.period !== null || own.year !== null;
    if (newSymbols && SYMBOL_INTENTS.includes(state.intent)) {
      const symbols =
        state.intent === 'compare_stocks' && entities.symbols.length === 1
          ? [state.symbols[0], entities.symbols[0]].filter(Boolean)
          : entities.symbols;
      return { ...own, intent: state.intent, entities: { ...entities, symbols } };
    }
    if (newTime && !newSymbols && PERIOD_INTENTS.includes(state.intent)) {
      const intent = state.intent === 'portfolio_value' ? 'portfolio_performance' : state.intent;
      return { ...own, intent, entities: { ...entities, symbols: state.symbols } };
    }
    if (newTime && !newSymbols && SYMBOL_INTENTS.includes(state.intent)) {
      return { ...own, intent: state.intent, entities: { ...entities, symbols: state.symbols } };
    }
  }
  return withPronoun(text, own, state);
}

function withPronoun(text: string, own: Understanding, state: ConversationState): Understanding {
  const needsSymbol = SYMBOL_INTENTS.includes(own.intent) || own.intent === 'holding';
  if (
    own.entities.symbols.length === 0 &&
    own.entities.unknownNames.length === 0 &&
    state.symbols.length > 0 &&
    (PRONOUN.test(text) || needsSymbol)
  ) {
    const symbols = PLURAL_PRONOUN.test(text) ? state.symbols : state.symbols.slice(0, 1);
    return { ...own, entities: { ...own.entities, symbols } };
  }
  return own;
}
