import { Injectable } from '@nestjs/common';
import { TransactionHost } from '@nestjs-cls/transactional';
import type { TransactionalAdapterTypeOrm } from '@nestjs-cls/transactional-adapter-typeorm';
import { ConversationMessageEntity, MessageRole } from './entities/conversation-message.entity';
import { ConversationEntity } from './entities/conversation.entity';
import { takeChatTurnSql } from '../../common/rate-limit/window-counters.repository';
import type { ChatTurnCount } from './chat-rate-limiter';
import { AnswerSource } from './tools/answer-source';

/** A message about to be stored; its position is taken when it is. */
export interface NewMessage {
  id: string;
  role: MessageRole;
  content: string;
  sources: AnswerSource[];
}

/** A conversation about to be stored with its first turn. */
export interface NewConversation {
  id: string;
  userId: number;
  title: string;
  createdAt: Date;
}

/**
 * Whether a chat turn was taken, with the conversation's row (null when it is not the user's) joined
 * with one of its last messages (null for a conversation without any).
 */
export interface TurnWithRecentMessageRow {
  taken: boolean;
  title: string | null;
  created_at: Date | null;
  updated_at: Date | null;
  role: MessageRole | null;
  content: string | null;
}

/** Every query on assistant conversations and their messages; each joins the caller's transaction when there is one. */
@Injectable()
export class ConversationsRepository {
  constructor(private readonly host: TransactionHost<TransactionalAdapterTypeOrm>) {}

  /** The current transaction's EntityManager, or the pool's outside one. */
  private get manager() {
    return this.host.tx;
  }

  /** A page of the user's conversations, the most recently updated first. */
  list(userId: number, limit: number, skip: number): Promise<ConversationEntity[]> {
    return this.manager.find(ConversationEntity, {
      where: { userId },
      order: { updatedAt: 'DESC', id: 'ASC' },
      take: limit,
      skip,
    });
  }

  findOwned(userId: number, id: string): Promise<ConversationEntity | null> {
    return this.manager.findOneBy(ConversationEntity, { id, userId });
  }

  /** The conversation's messages in order. */
  messages(conversationId: string): Promise<ConversationMessageEntity[]> {
    return this.manager.find(ConversationMessageEntity, {
      where: { conversationId },
      order: { position: 'ASC' },
    });
  }

  async delete(id: string): Promise<void> {
    await this.manager.delete(ConversationEntity, { id });
  }

  /**
   * Takes one chat turn of the user (WindowCountersRepository.takeChatTurn's upsert: counted only
   * below the limit or in a new window) and reads the user's conversation `id` with its last `count`
   * messages, oldest first, in one statement: one row per message (one with null `role` and
   * `content` when it has none, one with a null `title` too when the conversation is not the user's),
   * each saying whether the turn was taken.
   */
  takeTurnWithRecentMessages(
    userId: number,
    id: string,
    count: number,
    turn: ChatTurnCount,
  ): Promise<TurnWithRecentMessageRow[]> {
    return this.manager.query<TurnWithRecentMessageRow[]>(
      `WITH taken AS (
         ${takeChatTurnSql({ userId: '$2', now: '$4', endedIfOpenedBy: '$5', limit: '$6' })}
       )
       SELECT EXISTS (SELECT 1 FROM taken) AS taken,
              c.title, c.created_at, c.updated_at, recent.role, recent.content
         FROM (VALUES (1)) AS turn (one)
         LEFT JOIN assistant_conversations c ON c.id = $1 AND c.user_id = $2
         LEFT JOIN LATERAL (
           SELECT m.role, m.content, m.position FROM assistant_messages m
            WHERE m.conversation_id = c.id ORDER BY m.position DESC LIMIT $3
         ) recent ON true
        ORDER BY recent.position`,
      [id, userId, count, turn.bounds.now, turn.bounds.endedIfOpenedBy, turn.limit],
    );
  }

  /**
   * Stores a continued conversation's turn in one statement, at its next two positions, taken by
   * counting them on the conversation's row. That update waits for a concurrent turn of the same
   * conversation and then sees its count, so two turns never take the same positions. False when
   * the conversation no longer exists.
   */
  async appendTurn(conversationId: string, at: Date, turn: [NewMessage, NewMessage]): Promise<boolean> {
    const stored = await this.manager.query<{ position: number }[]>(
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
        conversationId,
        at,
        ...turn.flatMap((message) => [
          message.id,
          message.role,
          message.content,
          JSON.stringify(message.sources),
        ]),
      ],
    );
    return stored.length > 0;
  }

  /** Stores a new conversation with its first turn (positions 1 and 2), in one statement. */
  async insertWithFirstTurn(
    conversation: NewConversation,
    at: Date,
    turn: [NewMessage, NewMessage],
  ): Promise<void> {
    await this.manager.query(
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
        at,
        ...turn.flatMap((message, index) => [
          message.id,
          index + 1,
          message.role,
          message.content,
          JSON.stringify(message.sources),
        ]),
      ],
    );
  }
}
