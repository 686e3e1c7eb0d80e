import { ApiProperty } from '@nestjs/swagger';
import { TokenPair } from '../sessions.service';

export class TokenPairResponse {
  @ApiProperty({ description: 'JWT, sent as `Authorization: Bearer <access_token>`' })
  access_token: string;

  @ApiProperty({ description: 'JWT, exchanged at /auth/refresh for a new pair (single use)' })
  refresh_token: string;

  @ApiProperty({ example: 'bearer' })
  token_type: 'bearer';

  static from(pair: TokenPair): TokenPairResponse {
    return { access_token: pair.accessToken, refresh_token: pair.refreshToken, token_type: 'bearer' };
  }
}
