import { ApiProperty } from '@nestjs/swagger';
import { ALERT_KINDS } from '../alert-fields';
import { Notification, NotificationPage } from '../notification';

export class NotificationResponse {
  @ApiProperty({ example: 17 })
  id: number;

  @ApiProperty({
    type: 'integer',
    nullable: true,
    example: 3,
    description: 'The rule that fired; null for the daily briefing and once the rule is deleted',
  })
  rule_id: number | null;

  @ApiProperty({ enum: [...ALERT_KINDS, 'briefing'], example: 'price_above' })
  kind: string;

  @ApiProperty({ example: 'AAPL rose above 200' })
  title: string;

  @ApiProperty({ example: 'AAPL is at 201.5 USD, at or above your alert at 200 USD.' })
  text: string;

  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    example: {
      symbol: 'AAPL',
      price: 201.5,
      threshold: 200,
      as_of: '2026-11-18T15:00:00.000Z',
      source: 'market data',
    },
    description: 'The figures that fired the rule and where they came from',
  })
  data: Record<string, unknown>;

  @ApiProperty({ format: 'date-time' })
  created_at: string;

  @ApiProperty({ type: String, format: 'date-time', nullable: true })
  read_at: string | null;

  static from(notification: Notification): NotificationResponse {
    return {
      id: notification.id,
      rule_id: notification.ruleId,
      kind: notification.kind,
      title: notification.title,
      text: notification.text,
      data: notification.data,
      created_at: notification.createdAt.toISOString(),
      read_at: notification.readAt?.toISOString() ?? null,
    };
  }
}

export class NotificationListResponse {
  @ApiProperty({ type: NotificationResponse, isArray: true })
  items: NotificationResponse[];

  @ApiProperty({ example: 12, description: 'How many match (all, or the unread ones with unread_only)' })
  total: number;

  @ApiProperty({ example: 3, description: 'How many are unread' })
  unread_count: number;

  static from(page: NotificationPage): NotificationListResponse {
    return {
      items: page.items.map((item) => NotificationResponse.from(item)),
      total: page.total,
      unread_count: page.unread,
    };
  }
}

export class ReadAllResponse {
  @ApiProperty({ example: 3, description: 'How many were marked read' })
  marked_read: number;
}
