import { Column, Entity, PrimaryColumn } from 'typeorm';

/** One chat thread of one user; deleted with the user (foreign key ON DELETE CASCADE). */
@Entity({ name: 'assistant_conversations' })
export class ConversationEntity {
  @PrimaryColumn({ type: 'uuid' })
  id: string;

  @Column({ type: 'integer' })
  userId: number;

  @Column({ type: 'varchar', length: 120 })
  title: string;

  @Column({ type: 'timestamptz' })
  createdAt: Date;

  @Column({ type: 'timestamptz' })
  updatedAt: Date;

  /** The position of its last message: a turn adds two. */
  @Column({ type: 'integer', default: 0 })
  messageCount: number;
}
