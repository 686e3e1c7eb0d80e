import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, IsUUID, Length } from 'class-validator';

export const MAX_MESSAGE_LENGTH = 4000;

export class ChatRequestDto {
  @ApiProperty({ minLength: 1, maxLength: MAX_MESSAGE_LENGTH, example: 'How is Apple doing?' })
  @IsString()
  @Length(1, MAX_MESSAGE_LENGTH)
  message: string;

  @ApiPropertyOptional({
    type: String,
    format: 'uuid',
    nullable: true,
    description: 'Continue this conversation; a new one starts without it (or with null)',
  })
  @IsOptional()
  @IsUUID()
  conversation_id?: string | null;
}

export class ConversationIdParams {
  @ApiProperty({ format: 'uuid' })
  @IsUUID()
  id: string;
}
