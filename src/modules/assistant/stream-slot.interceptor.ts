import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Observable } from 'rxjs';
import { AuthUser } from '../../common/auth/auth-user';
import { OpenStreams } from './open-streams';
import { wantsEventStream } from './sse-stream';

/**
 * A chat request that asks for Server-Sent Events holds a slot of OpenStreams from before its turn
 * is counted until its response is closed (the stream ended, the client left, or it was refused);
 * a JSON answer holds none. The response, not the handler's observable, marks the end: Nest tears
 * the observable down once the request body has been read.
 */
@Injectable()
export class StreamSlotInterceptor implements NestInterceptor {
  constructor(private readonly streams: OpenStreams) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const http = context.switchToHttp();
    const request = http.getRequest<FastifyRequest & { user: AuthUser }>();
    if (!wantsEventStream(request.headers.accept)) return next.handle();
    const close = this.streams.open(request.user.id);
    const response = http.getResponse<FastifyReply>().raw;
    if (response.closed) close();
    else response.once('close', close);
    return next.handle();
  }
}
