import { ApiProperty } from '@nestjs/swagger';
import type { SchemaObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import type { StoredMessage } from '../conversations.service';
import type { AnswerSource } from '../tools/answer-source';

const SOURCE_SCHEMA: SchemaObject = {
  type: 'object',
  additionalProperties: true,
  required: ['type'],
  properties: {
    type: {
      type: 'string',
      enum: [
        'portfolio_summary',
        'positions',
        'risk_metrics',
        'quote',
        'market_summary',
        'news',
        'symbol_search',
        'preferences',
        'rebalance_dry_run',
        'holding',
        'tax_lots',
        'cash',
        'income',
        'realized',
        'transactions',
        'glossary',
        'market_graph',
      ],
    },
  },
  description:
    'One tool result the answer is grounded in, e.g. `{type: "quote", symbol, price, change_percent, as_of}`, ' +
    '`{type: "news", id, title, url, sentiment}`, `{type: "portfolio_summary", total_value, day_change, ...}`',
};

export class ChatMessageResponse {
  @ApiProperty({ format: 'uuid' })
  id: string;

  @ApiProperty({ enum: ['user', 'assistant'] })
  role: 'user' | 'assistant';

  @ApiProperty({ description: 'Plain text; an assistant message ends with a one-line disclaimer' })
  content: string;

  @ApiProperty({ type: String, format: 'date-time' })
  created_at: string;

  @ApiProperty({ type: 'array', items: SOURCE_SCHEMA })
  sources: AnswerSource[];

  static from(message: StoredMessage): ChatMessageResponse {
    return {
      id: message.id,
      role: message.role,
      content: message.content,
      created_at: message.createdAt.toISOString(),
      sources: message.sources,
    };
  }
}

export class ChatResponse {
  @ApiProperty({ format: 'uuid' })
  conversation_id: string;

  @ApiProperty({ type: ChatMessageResponse })
  message: ChatMessageResponse;

  @ApiProperty({ type: [String], description: 'Follow-up questions the assistant can answer' })
  suggestions: string[];
}

export class ConversationSummaryResponse {
  @ApiProperty({ format: 'uuid' })
  id: string;

  @ApiProperty({ description: 'The start of its first message' })
  title: string;

  @ApiProperty({ type: String, format: 'date-time' })
  created_at: string;

  @ApiProperty({ type: String, format: 'date-time', description: 'Time of the last message' })
  updated_at: string;
}

export class ConversationListResponse {
  @ApiProperty({ type: [ConversationSummaryResponse], description: 'Newest activity first' })
  conversations: ConversationSummaryResponse[];
}

export class ConversationResponse extends ConversationSummaryResponse {
  @ApiProperty({ type: [ChatMessageResponse], description: 'In order' })
  messages: ChatMessageResponse[];
}
