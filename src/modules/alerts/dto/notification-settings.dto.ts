import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsIn, IsOptional, IsString, IsUUID, MaxLength, ValidateIf } from 'class-validator';
import { NotificationSettings } from '../delivery/notification-settings.service';
import { Delivery } from '../delivery/notification-deliveries.repository';

export const MAX_WEBHOOK_URL_LENGTH = 2048;

export class UpdateNotificationSettingsDto {
  @ApiPropertyOptional({
    type: String,
    nullable: true,
    maxLength: MAX_WEBHOOK_URL_LENGTH,
    example: 'https://hooks.example.com/alerts',
    description:
      'An https URL that receives each notification (or digest) as a signed POST; null removes it. It must not ' +
      'resolve to a private or loopback address unless WEBHOOK_ALLOWED_HOSTS names its host',
  })
  @ValidateIf((body: Record<string, unknown>) => body.webhook_url !== undefined && body.webhook_url !== null)
  @IsString()
  @MaxLength(MAX_WEBHOOK_URL_LENGTH)
  webhook_url?: string | null;

  @ApiPropertyOptional({ description: 'Email each notification (or digest); needs SMTP_URL on the service' })
  @IsOptional()
  @IsBoolean()
  email_enabled?: boolean;

  @ApiPropertyOptional({
    example: 'Europe/Berlin',
    description: 'IANA time zone of the digests and the daily briefing',
  })
  @IsOptional()
  @IsString()
  @MaxLength(64)
  time_zone?: string;
}

export class NotificationSettingsResponse {
  @ApiProperty({ type: String, nullable: true, example: 'https://hooks.example.com/alerts' })
  webhook_url: string | null;

  @ApiProperty({
    type: String,
    nullable: true,
    example: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
    description: 'The Standard Webhooks secret that signs every POST to webhook_url',
  })
  webhook_secret: string | null;

  @ApiProperty({ example: false })
  email_enabled: boolean;

  @ApiProperty({
    example: true,
    description: 'False when the service has no SMTP server (SMTP_URL): email is off',
  })
  email_available: boolean;

  @ApiProperty({ example: 'America/New_York' })
  time_zone: string;

  static from(settings: NotificationSettings): NotificationSettingsResponse {
    return {
      webhook_url: settings.webhookUrl,
      webhook_secret: settings.webhookSecret,
      email_enabled: settings.emailEnabled,
      email_available: settings.emailAvailable,
      time_zone: settings.timeZone,
    };
  }
}

export const DELIVERY_STATUSES = ['pending', 'delivered', 'dead'] as const;

export class ListDeliveriesQuery {
  @ApiPropertyOptional({ enum: DELIVERY_STATUSES, description: 'dead: given up after every retry' })
  @IsOptional()
  @IsIn(DELIVERY_STATUSES)
  status?: (typeof DELIVERY_STATUSES)[number];
}

export class DeliveryResponse {
  @ApiProperty({ example: 4 })
  id: number;

  @ApiProperty({ example: 17 })
  notification_id: number;

  @ApiProperty({ enum: ['webhook', 'email'] })
  channel: string;

  @ApiProperty({ enum: DELIVERY_STATUSES })
  status: string;

  @ApiProperty({ example: 6 })
  attempts: number;

  @ApiProperty({ type: String, nullable: true, example: 'receiver answered 500' })
  last_error: string | null;

  @ApiProperty({ format: 'date-time', description: 'When it was (or is) due: now, or the digest boundary' })
  due_at: string;

  @ApiProperty({ type: String, format: 'date-time', nullable: true })
  next_attempt_at: string | null;

  @ApiProperty({ type: String, format: 'date-time', nullable: true })
  delivered_at: string | null;

  static from(delivery: Delivery): DeliveryResponse {
    return {
      id: delivery.id,
      notification_id: delivery.notificationId,
      channel: delivery.channel,
      status: delivery.status,
      attempts: delivery.attempts,
      last_error: delivery.lastError,
      due_at: delivery.dueAt.toISOString(),
      next_attempt_at: delivery.status === 'pending' ? delivery.nextAttemptAt.toISOString() : null,
      delivered_at: delivery.deliveredAt?.toISOString() ?? null,
    };
  }
}

export class UnsubscribeQuery {
  @ApiProperty({ enum: ['email', 'webhook'] })
  @IsIn(['email', 'webhook'])
  channel: 'email' | 'webhook';

  @ApiProperty({ format: 'uuid', description: 'The token in the link of every email' })
  @IsUUID()
  token: string;
}
