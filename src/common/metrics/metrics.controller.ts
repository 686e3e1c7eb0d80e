import { Controller, Get, Headers, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import {
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiProduces,
  ApiTags,
  ApiUnauthorizedResponse,
} from '@nestjs/swagger';
import { Public } from '../auth/public.decorator';
import { METRICS_CONTENT_TYPE } from './metrics';
import { MetricsExposure } from './metrics-exposure';

@ApiTags('system')
@Controller('metrics')
export class MetricsController {
  constructor(private readonly exposure: MetricsExposure) {}

  @Public()
  @Get()
  @ApiOperation({
    summary: 'Prometheus metrics (text exposition format)',
    description:
      'With METRICS_TOKEN set, only for `Authorization: Bearer <METRICS_TOKEN>`; with METRICS_PORT set, served on ' +
      'that port instead; with neither, open outside production and not served in production (docs/operations.md).',
  })
  @ApiProduces('text/plain')
  @ApiOkResponse({ schema: { type: 'string' } })
  @ApiUnauthorizedResponse({
    description: '`Could not validate credentials`: METRICS_TOKEN is set and not given',
  })
  @ApiNotFoundResponse({ description: '`Not Found`: served on METRICS_PORT, or off in production' })
  async scrape(
    @Headers('authorization') authorization: string | undefined,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<string> {
    const text = await this.exposure.scrape('application', authorization);
    // Set only on success: a refusal is JSON.
    void reply.type(METRICS_CONTENT_TYPE);
    return text;
  }
}
