import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AuthUser } from '../../common/auth/auth-user';
import { OpenStreams } from './open-streams';
import { wantsEventStream } from './sse-stream';

/**
 * A chat request that asks for Server-Sent Events holds a slot of OpenStreams from before its turn
 * is counted until its response is closed (the stream ended, the client left, or it was refused);
 * a JSON answer holds none. The response marks the end. A guard rather than an interceptor: it runs
 * at the same point (after authentication, before the body is validated), but an interceptor would
 * send every chat turn, JSON ones included, through Nest's interceptor chain (rxjs observables and
 * two AsyncResource bindings per request).
 */
@Injectable()
export class StreamSlotGuard implements CanActivate {
  constructor(private readonly streams: OpenStreams) {}

  canActivate(context: ExecutionContext): boolean {
    const http = context.switchToHttp();
    const request = http.getRequest<FastifyRequest & { user: AuthUser }>();
    if (!wantsEventStream(request.headers.accept)) return true;
    const close = this.streams.open(request.user.id);
    const response = http.getResponse<FastifyReply>().raw;
    if (response.closed) close();
    else response.once('close', close);
    return true;
  }
}
