import type { FastifyReply, FastifyRequest } from 'fastify';
import { HttpException, HttpStatus, Logger } from '@nestjs/common';
import { DomainError } from '../../common/errors/domain-errors';
import { ErrorDetail } from '../../common/errors/error-details';
import { errorStatus } from '../../common/errors/http-exception.filter';
import { openEventStream } from '../../common/http/event-stream-reply';
import { recordFailureAfterHeaders } from '../../common/metrics/answered-status';
import { ChatResponse } from './dto/chat.response';

const logger = new Logger('EventStream');

/** Whether the client asked for Server-Sent Events rather than one JSON body. */
export function wantsEventStream(accept: string | undefined): boolean {
  return /\btext\/event-stream\b/i.test(accept ?? '');
}

/**
 * Streams one chat answer as Server-Sent Events: `delta` events with `{text}` while it is written,
 * then `sources` with the list, then `done` with the same body the JSON answer has. A failure
 * after the stream started ends it with an `error` event `{detail}`; the exception filter never
 * sees it, so a server-side failure is logged and counted here, as the filter would have.
 */
export async function streamAnswer(
  request: FastifyRequest,
  reply: FastifyReply,
  answer: (onDelta: (text: string) => void) => Promise<ChatResponse>,
): Promise<void> {
  const raw = openEventStream(reply, request.id);
  const send = (event: string, data: unknown) => {
    if (!raw.writableEnded) raw.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
  };
  try {
    const body = await answer((text) => send('delta', { text }));
    send('sources', body.message.sources);
    send('done', body);
  } catch (error) {
    reportServerFailure(request, error);
    send('error', { detail: streamedDetail(error) });
  } finally {
    raw.end();
  }
}

function reportServerFailure(request: FastifyRequest, error: unknown): void {
  const status = errorStatus(error);
  if (status < HttpStatus.INTERNAL_SERVER_ERROR) return;
  recordFailureAfterHeaders(request, status);
  logger.error(
    { err: error, requestId: request.id, method: request.method, url: request.url, status },
    'The event stream failed after it started',
  );
}

/** The `detail` the JSON answer would have carried; anything unexpected stays unsaid. */
function streamedDetail(error: unknown): string {
  if (error instanceof DomainError) return error.detail;
  if (error instanceof HttpException) return error.message;
  if (errorStatus(error) === HttpStatus.SERVICE_UNAVAILABLE) return ErrorDetail.serviceUnavailable;
  return ErrorDetail.internalServerError;
}
