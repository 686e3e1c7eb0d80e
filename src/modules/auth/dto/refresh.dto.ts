import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, MaxLength } from 'class-validator';

export class RefreshDto {
  @ApiProperty({ description: 'The refresh token of the current pair' })
  @IsString()
  @MaxLength(4096)
  refresh_token: string;
}

export class LogoutDto {
  @ApiPropertyOptional({ description: "Also revoke this refresh token's session, if it is the caller's" })
  @IsOptional()
  @IsString()
  @MaxLength(4096)
  refresh_token?: string;
}
