import {
  Body,
  Controller,
  Delete,
  Get,
  HttpCode,
  HttpStatus,
  Param,
  Patch,
  Post,
  Query,
} from '@nestjs/common';
import {
  ApiBody,
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
  ApiUnprocessableEntityResponse,
} from '@nestjs/swagger';
import { AuthUser } from '../../common/auth/auth-user';
import { CurrentUser } from '../../common/auth/current-user.decorator';
import { ErrorDetail } from '../../common/errors/error-details';
import { AlertRulesService } from './alert-rules.service';
import { AlertIdParams } from './dto/alert-id.params';
import { AlertResponse } from './dto/alert.response';
import { CreateAlertDto } from './dto/create-alert.dto';
import { ListAlertsQuery } from './dto/list-alerts.query';
import { UpdateAlertDto } from './dto/update-alert.dto';

const notFound = ApiNotFoundResponse({ description: `\`${ErrorDetail.alertNotFound}\`` });

@ApiTags('alerts')
@Controller('alerts')
export class AlertsController {
  constructor(private readonly alerts: AlertRulesService) {}

  @Post()
  @ApiOperation({
    summary: 'Create an alert rule',
    description:
      'Armed at once; it fires once per arming, then re-arms by its `rearm` policy. At most 100 rules per user.',
  })
  @ApiBody({
    type: CreateAlertDto,
    examples: {
      price_above: { value: { kind: 'price_above', symbol: 'AAPL', price: 200 } },
      day_change: { value: { kind: 'day_change', symbol: 'portfolio', percent: 2, rearm: 'next_session' } },
      drawdown: { value: { kind: 'drawdown', symbol: 'MSFT', percent: 5 } },
      news: { value: { kind: 'news', symbol: 'AMZN', sentiment: 'negative', min_score: 0.5 } },
      sentiment_shift: { value: { kind: 'sentiment_shift', symbol: 'NVDA', window_days: 7, delta: 0.3 } },
      risk_level: { value: { kind: 'risk_level' } },
      watchlist_move: {
        value: { kind: 'watchlist_move', percent: 3, rearm: 'after_minutes', rearm_minutes: 60 },
      },
    },
  })
  @ApiCreatedResponse({ type: AlertResponse })
  @ApiUnprocessableEntityResponse({
    description:
      'A field its kind does not take or lacks, an unknown symbol, a bad threshold, or 100 rules already',
  })
  async create(@CurrentUser() user: AuthUser, @Body() body: CreateAlertDto): Promise<AlertResponse> {
    return AlertResponse.from(await this.alerts.create(user.id, body));
  }

  @Get()
  @ApiOperation({ summary: "The caller's alert rules, oldest first" })
  @ApiOkResponse({ type: AlertResponse, isArray: true })
  async list(@CurrentUser() user: AuthUser, @Query() query: ListAlertsQuery): Promise<AlertResponse[]> {
    return (await this.alerts.list(user.id, query.status)).map((rule) => AlertResponse.from(rule));
  }

  @Get(':id')
  @ApiOperation({ summary: 'One alert rule' })
  @ApiOkResponse({ type: AlertResponse })
  @notFound
  async get(@CurrentUser() user: AuthUser, @Param() params: AlertIdParams): Promise<AlertResponse> {
    return AlertResponse.from(await this.alerts.get(user.id, params.id));
  }

  @Patch(':id')
  @ApiOperation({
    summary: "Change a rule's thresholds, rearm policy or state",
    description: '`status: active` re-arms a triggered or paused rule; `paused` stops it.',
  })
  @ApiBody({
    type: UpdateAlertDto,
    examples: { rearm: { value: { status: 'active' } }, price: { value: { price: 210 } } },
  })
  @ApiOkResponse({ type: AlertResponse })
  @notFound
  @ApiUnprocessableEntityResponse({
    description: 'A field the rule’s kind does not take, or a bad threshold',
  })
  async update(
    @CurrentUser() user: AuthUser,
    @Param() params: AlertIdParams,
    @Body() body: UpdateAlertDto,
  ): Promise<AlertResponse> {
    return AlertResponse.from(await this.alerts.update(user.id, params.id, body));
  }

  @Delete(':id')
  @HttpCode(HttpStatus.NO_CONTENT)
  @ApiOperation({ summary: 'Delete a rule (its notifications stay in the inbox)' })
  @ApiNoContentResponse()
  @notFound
  remove(@CurrentUser() user: AuthUser, @Param() params: AlertIdParams): Promise<void> {
    return this.alerts.remove(user.id, params.id);
  }
}
