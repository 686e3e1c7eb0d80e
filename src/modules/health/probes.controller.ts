import { Controller, Get, HttpStatus, Res } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiServiceUnavailableResponse, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { Public } from '../../common/auth/public.decorator';
import { HealthService } from './health.service';
import { LivenessResponse, ReadinessResponse } from './probe.response';

/** Orchestrator probes, outside the API prefix (docs/operations.md shows how to wire them). */
@ApiTags('system')
@Controller()
export class ProbesController {
  constructor(private readonly health: HealthService) {}

  @Public()
  @Get('livez')
  @ApiOperation({ summary: 'Liveness: the process serves HTTP (no dependency is called); public' })
  @ApiOkResponse({ type: LivenessResponse })
  live(): LivenessResponse {
    return { status: 'alive' };
  }

  @Public()
  @Get('readyz')
  @ApiOperation({
    summary: 'Readiness: the database answers and the instance is not draining; Redis is reported; public',
  })
  @ApiOkResponse({ type: ReadinessResponse })
  @ApiServiceUnavailableResponse({
    type: ReadinessResponse,
    description: 'The database is unreachable or the instance is shutting down',
  })
  async ready(@Res({ passthrough: true }) reply: FastifyReply): Promise<ReadinessResponse> {
    const readiness = await this.health.readiness();
    if (readiness.status !== 'ready') void reply.status(HttpStatus.SERVICE_UNAVAILABLE);
    return readiness;
  }
}
