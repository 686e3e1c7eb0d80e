import { Body, Controller, Get, Put, Query } from '@nestjs/common';
import { ApiBody, ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { AuthUser } from '../../common/auth/auth-user';
import { CurrentUser } from '../../common/auth/current-user.decorator';
import { Public } from '../../common/auth/public.decorator';
import { ErrorDetail } from '../../common/errors/error-details';
import { NotificationSettingsService } from './delivery/notification-settings.service';
import {
  DeliveryResponse,
  ListDeliveriesQuery,
  NotificationSettingsResponse,
  UnsubscribeQuery,
  UpdateNotificationSettingsDto,
} from './dto/notification-settings.dto';

/** How many deliveries the list answers, newest first. */
const LISTED_DELIVERIES = 100;

@ApiTags('notifications')
@Controller('notifications')
export class NotificationChannelsController {
  constructor(private readonly settings: NotificationSettingsService) {}

  @Get('settings')
  @ApiOperation({ summary: 'Where your notifications go besides the inbox, and your time zone' })
  @ApiOkResponse({ type: NotificationSettingsResponse })
  async get(@CurrentUser() user: AuthUser): Promise<NotificationSettingsResponse> {
    return NotificationSettingsResponse.from(await this.settings.get(user.id));
  }

  @Put('settings')
  @ApiOperation({
    summary: 'Change any subset of the delivery settings',
    description:
      'A first webhook gets a signing secret (Standard Webhooks), answered here; `webhook_url: null` removes the ' +
      'webhook. Nothing is stored when any field is refused.',
  })
  @ApiBody({
    type: UpdateNotificationSettingsDto,
    examples: {
      webhook: { value: { webhook_url: 'https://hooks.example.com/alerts' } },
      zone: { value: { time_zone: 'Europe/Berlin', email_enabled: true } },
    },
  })
  @ApiOkResponse({ type: NotificationSettingsResponse })
  async update(
    @CurrentUser() user: AuthUser,
    @Body() body: UpdateNotificationSettingsDto,
  ): Promise<NotificationSettingsResponse> {
    return NotificationSettingsResponse.from(await this.settings.update(user.id, body));
  }

  @Get('deliveries')
  @ApiOperation({
    summary: 'Your webhook and email deliveries, newest first (the last 100)',
    description: '`status=dead` lists the dead letters: deliveries given up after every retry.',
  })
  @ApiOkResponse({ type: DeliveryResponse, isArray: true })
  async deliveries(
    @CurrentUser() user: AuthUser,
    @Query() query: ListDeliveriesQuery,
  ): Promise<DeliveryResponse[]> {
    return (await this.settings.deliveriesOf(user.id, query.status, LISTED_DELIVERIES)).map((delivery) =>
      DeliveryResponse.from(delivery),
    );
  }

  @Get('unsubscribe')
  @Public()
  @ApiOperation({ summary: 'Turn a channel off from the link in an email (no login needed)' })
  @ApiOkResponse({
    schema: { type: 'object', properties: { message: { type: 'string', example: 'Unsubscribed' } } },
  })
  @ApiNotFoundResponse({ description: `\`${ErrorDetail.unsubscribeLinkNotFound}\`` })
  async unsubscribe(@Query() query: UnsubscribeQuery): Promise<{ message: string }> {
    await this.settings.unsubscribe(query.token, query.channel);
    return { message: 'Unsubscribed' };
  }
}
