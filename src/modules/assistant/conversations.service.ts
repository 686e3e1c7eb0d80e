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
   * The conversation to continue (404 unless the caller's), or a new one titled after its first
   * message — stored only with its first turn, so that a turn costs one transaction.
   */
  async open(userId: number, id: string | undefined, firstMessage: string): Promise<OpenConversation> {
    if (id !== undefined) return { ...(await this.owned(userId, id)), isNew: false };
    const now = this.clock.now();
    const title = firstMessage.replace(/\s+/g, ' ').trim().slice(0, TITLE_LENGTH);
    return { id: randomUUID(), userId, title, createdAt: now, updatedAt: now, isNew: true };
  }

  /**
   * The last messages of the caller's conversation `id`, oldest first ([] for a new conversation, an
   * id that is not a UUID or another user's): scoped to the user, so that it can be read at the same
   * time as the ownership check instead of after it.
   */
  async history(userId: number, id: string | undefined): Promise<{ role: MessageRole; content: string }[]> {
    if (id === undefined || !UUID.test(id)) return [];
    const recent = (await this.messages.manager.query(
      `SELECT m.role, m.content FROM assistant_messages m
         JOIN assistant_conversations c ON c.id = m.conversation_id
        WHERE m.conversation_id = $1 AND c.user_id = $2
        ORDER BY m.position DESC LIMIT $3`,
      [id, userId, HISTORY_MESSAGES],
    )) as { role: MessageRole; content: string }[];
    return recent.reverse();
  }

  /**
   * Stores the question and its answer together, atomically: a new conversation with its first two
   * messages in one statement (one round trip), a continued one in a transaction that locks it.
   */
  async recordTurn(
    conversation: OpenConversation,
    question: string,
    answer: { content: string; sources: AnswerSource[] },
  ): Promise<StoredMessage> {
    if (conversation.isNew) return this.recordFirstTurn(conversation, question, answer);
    const conversationId = conversation.id;
    return this.messages.manager.transaction(async (manager) => {
      const now = this.clock.now();
      const locked = (await manager.query(`SELECT 1 FROM assistant_conversations WHERE id = $1 FOR UPDATE`, [
        conversationId,
      ])) as unknown[];
      // Deleted while the answer was being written.
      if (locked.length === 0) throw new NotFoundError(ErrorDetail.conversationNotFound);
      // A statement of its own: it sees the turns committed while this one waited for the lock
      // (one statement would use the snapshot taken before the wait, and two turns the same position).
      const [{ next }] = (await manager.query(
        `SELECT COALESCE(MAX(position), 0) + 1 AS next FROM assistant_messages WHERE conversation_id = $1`,
        [conversationId],
      )) as { next: number }[];
      const first = Number(next);
      await manager.update(ConversationEntity, { id: conversationId }, { updatedAt: now });
      const [asked, answered] = turnMessages(conversationId, first, question, answer, now);
      await manager.insert(ConversationMessageEntity, [asked, answered]);
      return answered;
    });
  }

  private async recordFirstTurn(
    conversation: OpenConversation,
    question: string,
    answer: { content: string; sources: AnswerSource[] },
  ): Promise<StoredMessage> {
    const now = this.clock.now();
    const [asked, answered] = turnMessages(conversation.id, 1, question, answer, now);
    await this.messages.manager.query(
      `WITH conversation AS (
         INSERT INTO assistant_conversations (id, user_id, title, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5)
       )
       INSERT INTO assistant_messages (id, conversation_id, position, role, content, sources, created_at)
       VALUES ($6, $1, $7, $8, $9, $10::jsonb, $5), ($11, $1, $12, $13, $14, $15::jsonb, $5)`,
      [
        conversation.id,
        conversation.userId,
        conversation.title,
        conversation.createdAt,
        now,
        ...[asked, answered].flatMap((message) => [
          message.id,
          message.position,
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

function turnMessages(
  conversationId: string,
  first: number,
  question: string,
  answer: { content: string; sources: AnswerSource[] },
  now: Date,
): [ConversationMessageEntity, ConversationMessageEntity] {
  const message = (position: number, role: MessageRole, content: string, sources: AnswerSource[]) => ({
    id: randomUUID(),
    conversationId,
    position,
    role,
    content,
    sources,
    createdAt: now,
  });
  return [
    message(first, 'user', question, []),
    message(first + 1, 'assistant', answer.content, answer.sources),
  ];
}
