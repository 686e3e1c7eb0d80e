import { ApiProperty } from '@nestjs/swagger';
import type { SessionSummary } from '../../auth';

export class SessionResponse {
  @ApiProperty({ format: 'uuid', example: '3f2b8c1e-9d4a-4e7b-8a61-2c5d9e0f1a7b' })
  id: string;

  @ApiProperty({ format: 'date-time', example: '2026-11-20T08:30:00.000Z', description: 'The login' })
  created_at: string;

  @ApiProperty({
    format: 'date-time',
    example: '2026-11-22T09:05:00.000Z',
    description: 'The login or the last refresh (an access token is used without touching it)',
  })
  last_used_at: string;

  @ApiProperty({
    type: String,
    nullable: true,
    example: 'Mozilla/5.0 (X11; Linux x86_64) Firefox/133.0',
    description: 'The User-Agent of that login or refresh (at most 512 characters)',
  })
  user_agent: string | null;

  @ApiProperty({
    type: String,
    nullable: true,
    example: '198.51.100.7',
    description: 'The client address of that login or refresh (X-Forwarded-For as far as TRUST_PROXY allows)',
  })
  ip_address: string | null;

  @ApiProperty({ example: true, description: 'Whether this is the session of the calling access token' })
  current: boolean;

  static from(session: SessionSummary, currentSessionId: string): SessionResponse {
    return {
      id: session.id,
      created_at: session.createdAt.toISOString(),
      last_used_at: session.lastUsedAt.toISOString(),
      user_agent: session.userAgent,
      ip_address: session.clientIp,
      current: session.id === currentSessionId,
    };
  }
}
