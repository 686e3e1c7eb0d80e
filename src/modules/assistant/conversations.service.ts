import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { randomUUID } from 'node:crypto';
import { Repository } from 'typeorm';
import { Clock } from '../../common/time/clock';
import { NotFoundError } from '../../common/errors/domain-errors';
import { ErrorDetail } from '../../common/errors/error-details';
import { ConversationMessageEntity, MessageRole } from './entities/conversation-message.entity';
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
    @InjectRepository(ConversationEntity) private readonly conversations: Repository<ConversationEntity>,
    @InjectRepository(ConversationMessageEntity)
    private readonly messages: Repository<ConversationMessageEntity>,
    private readonly clock: Clock,
  ) {}

  async list(userId: number, limit: number, skip: number): Promise<ConversationSummary[]> {
    return this.conversations.find({
      where: { userId },
      order: { updatedAt: 'DESC', id: 'ASC' },
      take: limit,
      skip,
    });
  }

  async get(userId: number, id: string): Promise<ConversationSummary & { messages: StoredMessage[] }> {
    const conversation = await this.owned(userId, id);
    const messages = await this.messages.find({ where: { conversationId: id }, order: { position: 'ASC' } });
    return { ...conversation, messages };
  }

  async delete(userId: number, id: string): Promise<void> {
    const conversation = await this.owned(userId, id);
    await this.conversations.delete({ id: conversation.id });
  }

  /**
   * The conversation a turn belongs to and its last messages (oldest first), in one query: the
   * caller's conversation `id` (404 unless it is theirs) or a new one titled after its first
   * message, with no history — stored only with its first turn, so that a turn costs one statement.
   */
  async begin(
    userId: number,
    id: string | undefined,
    firstMessage: string,
  ): Promise<{ conversation: OpenConversation; history: HistoryMessage[] }> {
    if (id === undefined) {
      const now = this.clock.now();
      const title = firstMessage.replace(/\s+/g, ' ').trim().slice(0, TITLE_LENGTH);
      return {
        conversation: { id: randomUUID(), userId, title, createdAt: now, updatedAt: now, isNew: true },
        history: [],
      };
    }
    if (!UUID.test(id)) throw new NotFoundError(ErrorDetail.conversationNotFound);
    const rows = (await this.messages.manager.query(
      `SELECT c.title, c.created_at, c.updated_at, recent.role, recent.content
         FROM assistant_conversations c
         LEFT JOIN LATERAL (
           SELECT m.role, m.content, m.position FROM assistant_messages m
            WHERE m.conversation_id = c.id ORDER BY m.position DESC LIMIT $3
         ) recent ON true
        WHERE c.id = $1 AND c.user_id = $2
        ORDER BY recent.position`,
      [id, userId, HISTORY_MESSAGES],
    )) as {
      title: string;
      created_at: Date;
      updated_at: Date;
      role: MessageRole | null;
      content: string | null;
    }[];
    if (rows.length === 0) throw new NotFoundError(ErrorDetail.conversationNotFound);
    const [first] = rows;
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
    const stored = (await this.messages.manager.query(
      `WITH turn AS (
         UPDATE assistant_conversations SET updated_at = $2, message_count = message_count + 2
          WHERE id = $1 RETURNING message_count
       )
       INSERT INTO assistant_messages (id, conversation_id, position, role, content, sources, created_at)
       SELECT $3::uuid, $1, turn.message_count - 1, $4, $5, $6::jsonb, $2 FROM turn
       UNION ALL
       SELECT $7::uuid, $1, turn.message_count, $8, $9, $10::jsonb, $2 FROM turn
       RETURNING position`,
      [
        conversation.id,
        now,
        ...[asked, answered].flatMap((message) => [
          message.id,
          message.role,
          message.content,
          JSON.stringify(message.sources),
        ]),
      ],
    )) as { position: number }[];
    // Deleted while the answer was being written.
    if (stored.length === 0) throw new NotFoundError(ErrorDetail.conversationNotFound);
    return answered;
  }

  private async recordFirstTurn(
    conversation: OpenConversation,
    question: string,
    answer: { content: string; sources: AnswerSource[] },
  ): Promise<StoredMessage> {
    const now = this.clock.now();
    const [asked, answered] = turnMessages(conversation.id, question, answer, now);
    await this.messages.manager.query(
      `WITH conversation AS (
         INSERT INTO assistant_conversations (id, user_id, title, created_at, updated_at, message_count)
         VALUES ($1, $2, $3, $4, $5, 2)
       )
       INSERT INTO assistant_messages (id, conversation_id, position, role, content, sources, created_at)
       VALUES ($6, $1, $7, $8, $9, $10::jsonb, $5), ($11, $1, $12, $13, $14, $15::jsonb, $5)`,
      [
        conversation.id,
        conversation.userId,
        conversation.title,
        conversation.createdAt,
        now,
        ...[asked, answered].flatMap((message, index) => [
          message.id,
          index + 1,
          message.role,
          message.content,
          JSON.stringify(message.sources),
        ]),
      ],
    );
    return answered;
  }

  private async owned(userId: number, id: string): Promise<ConversationEntity> {
    const conversation = UUID.test(id) ? await this.conversations.findOneBy({ id, userId }) : null;
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
