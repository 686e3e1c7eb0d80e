import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';

/** One login: the access and refresh tokens it issues all carry its id as `sid`. */
@Entity({ name: 'sessions' })
export class SessionEntity {
  @PrimaryColumn({ type: 'uuid' })
  id: string;

  @Column({ type: 'integer' })
  userId: number;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;

  @Column({ type: 'timestamptz', nullable: true })
  revokedAt: Date | null;

  /** The login, or the last refresh. */
  @Column({ type: 'timestamptz' })
  lastUsedAt: Date;

  /** The User-Agent and client address of that login or refresh. */
  @Column({ type: 'varchar', length: 512, nullable: true })
  userAgent: string | null;

  @Column({ type: 'varchar', length: 64, nullable: true })
  clientIp: string | null;
}
