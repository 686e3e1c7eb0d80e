import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';

/** Who is calling, as a session records it: the client address (TRUST_PROXY applied) and User-Agent. */
export interface ClientInfo {
  ip: string;
  userAgent: string | null;
}

export const MAX_USER_AGENT_LENGTH = 512;

export const Client = createParamDecorator((_data: unknown, context: ExecutionContext): ClientInfo => {
  const request = context.switchToHttp().getRequest<FastifyRequest>();
  const userAgent = request.headers['user-agent'];
  return {
    ip: request.ip.slice(0, 64),
    userAgent: userAgent ? userAgent.slice(0, MAX_USER_AGENT_LENGTH) : null,
  };
});
