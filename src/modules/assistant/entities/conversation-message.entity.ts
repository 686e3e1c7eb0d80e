import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { AnswerSource } from '../tools/answer-source';

export type MessageRole = 'user' | 'assistant';

/** One turn's message, in `position` order within its conversation. */
@Entity({ name: 'assistant_messages' })
export class ConversationMessageEntity {
  @PrimaryColumn({ type: 'uuid' })
  id: string;

  @Column({ type: 'uuid' })
  conversationId: string;

  @Column({ type: 'integer' })
  position: number;

  @Column({ type: 'varchar', length: 16 })
  role: MessageRole;

  @Column({ type: 'text' })
  content: string;

  @Column({ type: 'jsonb' })
  sources: AnswerSource[];

  @Column({ type: 'timestamptz' })
  createdAt: Date;
}
