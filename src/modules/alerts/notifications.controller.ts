import {
  Controller,
  Get,
  Headers,
  HttpCode,
  HttpStatus,
  Inject,
  Param,
  Post,
  Query,
  Req,
  Res,
} from '@nestjs/common';
import { ConfigType } from '@nestjs/config';
import {
  ApiHeader,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiProduces,
  ApiTags,
  ApiTooManyRequestsResponse,
} from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { InvalidFieldError } from '../../common/errors/domain-errors';
import { alertsConfig } from '../../config/alerts.config';
import { AuthUser } from '../../common/auth/auth-user';
import { CurrentUser } from '../../common/auth/current-user.decorator';
import { ErrorDetail } from '../../common/errors/error-details';
import { ListNotificationsQuery } from './dto/list-notifications.query';
import { NotificationIdParams } from './dto/notification-id.params';
import { NotificationListResponse, NotificationResponse, ReadAllResponse } from './dto/notification.response';
import { NotificationFeed } from './notification-feed';
import { streamNotifications } from './notification-stream';
import { NotificationsService } from './notifications.service';

const EVENT_ID_PATTERN = /^\d{1,15}$/;

@ApiTags('notifications')
@Controller('notifications')
export class NotificationsController {
  constructor(
    private readonly notifications: NotificationsService,
    private readonly feed: NotificationFeed,
    @Inject(alertsConfig.KEY) private readonly config: ConfigType<typeof alertsConfig>,
  ) {}

  @Get('stream')
  @ApiOperation({
    summary: 'New notifications as they are created, as Server-Sent Events',
    description:
      'Each notification is an `event: notification` whose `id:` is the notification id and whose `data:` is the ' +
      'notification as the inbox lists it. A client that reconnects with `Last-Event-ID` first receives every ' +
      'notification it missed; without it the stream starts from now. A comment line (`: heartbeat`) is sent every ' +
      'NOTIFICATION_STREAM_HEARTBEAT_MS. Notifications created on any replica reach a stream held on any other.',
  })
  @ApiProduces('text/event-stream')
  @ApiHeader({
    name: 'Last-Event-ID',
    required: false,
    description: 'The id of the last notification received',
  })
  @ApiOkResponse({
    description: 'The event stream',
    content: {
      'text/event-stream': {
        schema: { type: 'string' },
        example:
          'id: 17\nevent: notification\ndata: {"id":17,"rule_id":3,"kind":"price_above","title":"AAPL rose above 200",' +
          '"text":"AAPL is at 201.5 USD, at or above your alert at 200 USD.","data":{"symbol":"AAPL","price":201.5},' +
          '"created_at":"2026-11-18T15:00:00.000Z","read_at":null}\n\n',
      },
    },
  })
  @ApiTooManyRequestsResponse({
    description:
      '`Too many open notification streams: at most <n> per user, try again later` or `Too many open notification ' +
      'streams, try again later` (NOTIFICATION_STREAMS_PER_USER, NOTIFICATION_STREAMS_TOTAL). See Retry-After',
  })
  async stream(
    @CurrentUser() user: AuthUser,
    @Headers('last-event-id') lastEventId: string | undefined,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<void> {
    if (lastEventId !== undefined && !EVENT_ID_PATTERN.test(lastEventId))
      throw InvalidFieldError.valueError(
        ['header', 'last-event-id'],
        'Last-Event-ID must be a notification id',
      );
    await streamNotifications(
      reply,
      request.id,
      {
        since: (afterId) => this.notifications.since(user.id, afterId, 100),
        latestId: () => this.notifications.latestId(user.id),
        subscribe: (onNew, end) => this.feed.subscribe(user.id, onNew, end),
      },
      {
        lastEventId: lastEventId === undefined ? null : Number(lastEventId),
        heartbeatMs: this.config.streamHeartbeatMs,
        toEvent: (notification) => NotificationResponse.from(notification),
      },
    );
  }

  @Get()
  @ApiOperation({ summary: 'The inbox, newest first, with the unread count' })
  @ApiOkResponse({ type: NotificationListResponse })
  async list(
    @CurrentUser() user: AuthUser,
    @Query() query: ListNotificationsQuery,
  ): Promise<NotificationListResponse> {
    return NotificationListResponse.from(
      await this.notifications.page(user.id, {
        unreadOnly: query.unread_only,
        skip: query.skip,
        limit: query.limit,
      }),
    );
  }

  @Post('read-all')
  @HttpCode(HttpStatus.OK)
  @ApiOperation({ summary: 'Mark every notification read' })
  @ApiOkResponse({ type: ReadAllResponse })
  async readAll(@CurrentUser() user: AuthUser): Promise<ReadAllResponse> {
    return { marked_read: await this.notifications.markAllRead(user.id) };
  }

  @Post(':id/read')
  @HttpCode(HttpStatus.OK)
  @ApiOperation({ summary: 'Mark one notification read (the first read time is kept)' })
  @ApiOkResponse({ type: NotificationResponse })
  @ApiNotFoundResponse({ description: `\`${ErrorDetail.notificationNotFound}\`` })
  async read(
    @CurrentUser() user: AuthUser,
    @Param() params: NotificationIdParams,
  ): Promise<NotificationResponse> {
    return NotificationResponse.from(await this.notifications.markRead(user.id, params.id));
  }
}
