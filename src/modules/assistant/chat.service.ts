import { Injectable, Logger } from '@nestjs/common';
import { PreferencesService } from '../preferences';
import { AiStatus } from '../ai-status';
import { ConversationsService, StoredMessage } from './conversations.service';
import { ChatEngine, ChatTurn, DeltaSink, EngineAnswer } from './engines/chat-engine';
import { OfflineEngine } from './engines/offline/offline-engine';
import { ModelFailure } from './engines/openai/openai-engine';

export interface ChatOutcome {
  conversationId: string;
  message: StoredMessage;
  suggestions: string[];
}

/** A turn that passed the checks (rate limit, conversation ownership) and can now be answered. */
export interface PendingTurn {
  conversationId: string;
  run(onDelta?: DeltaSink): Promise<ChatOutcome>;
}

export const fallbackNote = (reason: string) =>
  `Note: the AI model could not answer (${reason}), so this answer comes from the built-in offline assistant.`;

/** One chat turn: checks, the configured engine (falling back to the offline one), then storage. */
@Injectable()
export class ChatService {
  private readonly logger = new Logger(ChatService.name);

  constructor(
    private readonly conversations: ConversationsService,
    private readonly preferences: PreferencesService,
    /** The configured engine (AI_PROVIDER): the offline rules, or a model that falls back to them. */
    private readonly engine: ChatEngine,
    private readonly offline: OfflineEngine,
    private readonly status: AiStatus,
  ) {}

  /**
   * 429 beyond the per-user limit and 404 for a conversation that is not the caller's, before
   * anything streams (the limit first when both apply). The turn's count with the conversation and
   * its earlier messages (one statement), and the preferences, are read concurrently: one round trip
   * of waiting.
   */
  async start(userId: number, message: string, conversationId?: string): Promise<PendingTurn> {
    const opening = this.conversations.begin(userId, conversationId, message);
    const reading = this.preferences.findForUser(userId);
    await Promise.allSettled([opening, reading]);
    const { conversation, history } = await opening;
    const preferences = await reading;
    return {
      conversationId: conversation.id,
      run: async (onDelta = () => undefined) => {
        const answer = await this.answer({ userId, message, history, preferences }, onDelta);
        const stored = await this.conversations.recordTurn(conversation, message, answer);
        return { conversationId: conversation.id, message: stored, suggestions: answer.suggestions };
      },
    };
  }

  private async answer(turn: ChatTurn, onDelta: DeltaSink): Promise<EngineAnswer> {
    if (this.engine === this.offline) return this.offline.answer(turn, onDelta);
    let streamed = '';
    try {
      const answer = await this.engine.answer(turn, (text) => {
        streamed += text;
        onDelta(text);
      });
      this.status.recordSuccess();
      return { ...answer, suggestions: await this.offline.suggestionsFor(turn.message, turn.history) };
    } catch (error) {
      if (!(error instanceof ModelFailure)) throw error;
      this.status.recordFailure();
      this.logger.warn(`AI model failed, answering offline: ${error.message}`);
      const lead = streamed ? '\n\n' : '';
      const note = fallbackNote(error.reason);
      onDelta(`${lead}${note}\n\n`);
      const offline = await this.offline.answer(turn, onDelta);
      return { ...offline, content: `${streamed}${lead}${note}\n\n${offline.content}` };
    }
  }
}
