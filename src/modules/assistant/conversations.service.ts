import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { Clock } from '../../common/time/clock';
import { NotFoundError } from '../../common/errors/domain-errors';
import { ErrorDetail } from '../../common/errors/error-details';
import { ChatRateLimiter } from './chat-rate-limiter';
import { ConversationsRepository } from './conversations.repository';
import { MessageRole } from './entities/conversation-message.entity';
import { ConversationEntity } from './entities/conversation.entity';
import { AnswerSource } from './tools/answer-source';

/** Earlier messages handed to an engine as context. */
export const HISTORY_MESSAGES = 10;
const TITLE_LENGTH = 80;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface StoredMessage {
  id: string;
  role: MessageRole;
  content: string;
  sources: AnswerSource[];
  createdAt: Date;
}

export interface HistoryMessage {
  role: MessageRole;
  content: string;
}

export interface OpenConversation extends ConversationSummary {
  userId: number;
  /** Not stored yet: it is inserted with its first turn. */
  isNew: boolean;
}

export interface ConversationSummary {
  id: string;
  title: string;
  createdAt: Date;
  updatedAt: Date;
}

/** A user's conversations and their messages; another user's conversation is "not found". */
@Injectable()
export class ConversationsService {
  constructor(
    private readonly conversations: ConversationsRepository,
    private readonly limiter: ChatRateLimiter,
    private readonly clock: Clock,
  ) {}

  async list(userId: number, limit: number, skip: number): Promise<ConversationSummary[]> {
    return this.conversations.list(userId, limit, skip);
  }

  async get(userId: number, id: string): Promise<ConversationSummary & { messages: StoredMessage[] }> {
    const conversation = await this.owned(userId, id);
    const messages = await this.conversations.messages(id);
    return { ...conversation, messages };
  }

  async delete(userId: number, id: string): Promise<void> {
    const conversation = await this.owned(userId, id);
    await this.conversations.delete(conversation.id);
  }

  /**
   * Counts the turn (429 beyond the per-user limit, before anything else) and opens the conversation
   * it belongs to with its last messages (oldest first): the caller's conversation `id` (404 unless
   * it is theirs), counted and read in one statement, or a new one titled after its first message,
   * with no history — stored only with its first turn, so that a turn costs one statement more.
   */
  async begin(
    userId: number,
    id: string | undefined,
    firstMessage: string,
  ): Promise<{ conversation: OpenConversation; history: HistoryMessage[] }> {
    if (id === undefined || !UUID.test(id)) {
      await this.limiter.take(userId);
      if (id !== undefined) throw new NotFoundError(ErrorDetail.conversationNotFound);
      const now = this.clock.now();
      const title = firstMessage.replace(/\s+/g, ' ').trim().slice(0, TITLE_LENGTH);
      return {
        conversation: { id: randomUUID(), userId, title, createdAt: now, updatedAt: now, isNew: true },
        history: [],
      };
    }
    const turn = this.limiter.turn();
    const rows = await this.conversations.takeTurnWithRecentMessages(userId, id, HISTORY_MESSAGES, turn);
    const [first] = rows;
    await this.limiter.settle(userId, turn, first.taken);
    if (first.title === null || first.created_at === null || first.updated_at === null) {
      throw new NotFoundError(ErrorDetail.conversationNotFound);
    }
    return {
      conversation: {
        id,
        userId,
        title: first.title,
        createdAt: first.created_at,
        updatedAt: first.updated_at,
        isNew: false,
      },
      history: rows.flatMap(({ role, content }) =>
        role === null || content === null ? [] : [{ role, content }],
      ),
    };
  }

  /**
   * Stores the question and its answer together, atomically, in one statement: a new conversation
   * with its first two messages, or a continued one's next two positions taken by counting them on
   * the conversation's row. That update waits for a concurrent turn of the same conversation and
   * then sees its count, so two turns never take the same positions.
   */
  async recordTurn(
    conversation: OpenConversation,
    question: string,
    answer: { content: string; sources: AnswerSource[] },
  ): Promise<StoredMessage> {
    if (conversation.isNew) return this.recordFirstTurn(conversation, question, answer);
    const now = this.clock.now();
    const [asked, answered] = turnMessages(conversation.id, question, answer, now);
    const stored = await this.conversations.appendTurn(conversation.id, now, [asked, answered]);
    // Deleted while the answer was being written.
    if (!stored) throw new NotFoundError(ErrorDetail.conversationNotFound);
    return answered;
  }

  private async recordFirstTurn(
    conversation: OpenConversation,
    question: string,
    answer: { content: string; sources: AnswerSource[] },
  ): Promise<StoredMessage> {
    const now = this.clock.now();
    const [asked, answered] = turnMessages(conversation.id, question, answer, now);
    await this.conversations.insertWithFirstTurn(conversation, now, [asked, answered]);
    return answered;
  }

  private async owned(userId: number, id: string): Promise<ConversationEntity> {
    const conversation = UUID.test(id) ? await this.conversations.findOwned(userId, id) : null;
    if (!conversation) throw new NotFoundError(ErrorDetail.conversationNotFound);
    return conversation;
  }
}

/** A turn's question and answer; their positions are taken when they are stored. */
function turnMessages(
  conversationId: string,
  question: string,
  answer: { content: string; sources: AnswerSource[] },
  now: Date,
): [StoredMessage, StoredMessage] {
  const message = (role: MessageRole, content: string, sources: AnswerSource[]) => ({
    id: randomUUID(),
    conversationId,
    role,
    content,
    sources,
    createdAt: now,
  });
  return [message('user', question, []), message('assistant', answer.content, answer.sources)];
}
