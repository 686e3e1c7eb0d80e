import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * A key a user sent with a write, with the hash of that request and the answer it got. The row is
 * claimed in the write's own transaction before the write and gets its answer in it after, so a
 * committed row always has its answer and its write.
 */
@Entity({ name: 'idempotency_keys' })
export class IdempotencyKeyEntity {
  @PrimaryColumn({ type: 'integer' })
  userId: number;

  @PrimaryColumn({ type: 'varchar', length: 255 })
  key: string;

  @Column({ type: 'char', length: 64 })
  fingerprint: string;

  /** The JSON body answered; `json`, not `jsonb`, so that a replay keeps the key order. */
  @Column({ type: 'json', nullable: true })
  response: unknown;

  /** By the service's clock; the key expires 24 hours later. */
  @Column({ type: 'timestamptz' })
  createdAt: Date;
}
