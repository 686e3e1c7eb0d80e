import type { Preferences } from '../../preferences';
import type { AnswerSource } from '../tools/answer-source';

export const DISCLAIMER = 'This is information, not investment advice.';

export interface ChatTurn {
  userId: number;
  message: string;
  /** Earlier messages of the conversation, oldest first. */
  history: { role: 'user' | 'assistant'; content: string }[];
  preferences: Preferences | null;
}

export interface EngineAnswer {
  content: string;
  sources: AnswerSource[];
  suggestions: string[];
}

/** Receives the answer's text as it is written, for Server-Sent Events. */
export type DeltaSink = (text: string) => void;

/** One way of answering a turn: the offline rules or an OpenAI-compatible model. */
export abstract class ChatEngine {
  abstract answer(turn: ChatTurn, onDelta: DeltaSink): Promise<EngineAnswer>;
}
