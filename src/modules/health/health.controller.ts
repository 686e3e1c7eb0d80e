import { Controller, Get, HttpStatus, Res } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiServiceUnavailableResponse, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { Public } from '../../common/auth/public.decorator';
import { HealthResponse } from './health.response';
import { HealthService } from './health.service';

@ApiTags('system')
@Controller('system')
export class HealthController {
  constructor(private readonly health: HealthService) {}

  @Public()
  @Get('health')
  @ApiOperation({ summary: 'Service health; public' })
  @ApiOkResponse({ type: HealthResponse })
  @ApiServiceUnavailableResponse({ type: HealthResponse, description: 'The database is unreachable' })
  async check(@Res({ passthrough: true }) reply: FastifyReply): Promise<HealthResponse> {
    const report = await this.health.report();
    if (report.status !== 'healthy') void reply.status(HttpStatus.SERVICE_UNAVAILABLE);
    return report;
  }
}
