import type { components } from './schema';

type Schemas = components['schemas'];

/** One Server-Sent Event: its name (`message` when the server gave none) and its data lines. */
export interface ServerSentEvent {
  event: string;
  data: string;
}

/** What `POST /api/v1/assistant/chat` with `Accept: text/event-stream` sends, in order. */
export type ChatStreamEvent =
  | { event: 'delta'; data: { text: string } }
  | { event: 'sources'; data: Schemas['ChatResponse']['message']['sources'] }
  | { event: 'done'; data: Schemas['ChatResponse'] }
  | { event: 'error'; data: Schemas['HTTPError'] };

/**
 * Reads a `text/event-stream` body as it arrives (fetch + reader, no EventSource, so the request
 * can be a POST with an Authorization header). Follows the HTML standard's parsing: lines end in
 * LF, CRLF or CR, `:` starts a comment, `data:` lines of one event are joined with a newline, a
 * blank line dispatches it, and a single space after the colon is dropped.
 */
export async function* readServerSentEvents(
  body: ReadableStream<Uint8Array>,
): AsyncGenerator<ServerSentEvent> {
  // The DOM's typings say the decoder takes any BufferSource, Node's say Uint8Array: both fit here.
  const decoder = new TextDecoderStream() as TransformStream<Uint8Array, string>;
  const reader = body.pipeThrough(decoder).getReader();
  let buffer = '';
  let event = '';
  let data: string[] = [];
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      buffer += value;
      let newline: RegExpExecArray | null;
      while ((newline = /\r\n|\r|\n/.exec(buffer)) !== null) {
        // A CR at the very end may be the first half of a CRLF still on its way.
        if (newline[0] === '\r' && newline.index === buffer.length - 1) break;
        const line = buffer.slice(0, newline.index);
        buffer = buffer.slice(newline.index + newline[0].length);
        if (line === '') {
          if (data.length > 0) yield { event: event || 'message', data: data.join('\n') };
          event = '';
          data = [];
          continue;
        }
        if (line.startsWith(':')) continue;
        const colon = line.indexOf(':');
        const field = colon === -1 ? line : line.slice(0, colon);
        const value = colon === -1 ? '' : line.slice(colon + 1).replace(/^ /, '');
        if (field === 'event') event = value;
        else if (field === 'data') data.push(value);
      }
    }
  } finally {
    reader.releaseLock();
  }
}

/**
 * The assistant's streamed answer as typed events: pass the `response` of
 * `api.POST('/api/v1/assistant/chat', { body, headers: { Accept: 'text/event-stream' }, parseAs: 'stream' })`.
 * An error before the stream started is the usual JSON error instead: check `error` first.
 */
export async function* chatEvents(response: Response): AsyncGenerator<ChatStreamEvent> {
  if (!response.body) return;
  for await (const { event, data } of readServerSentEvents(response.body)) {
    yield { event, data: JSON.parse(data) } as ChatStreamEvent;
  }
}

/** One `event: notification` of `GET /api/v1/notifications/stream`: its id and the inbox item. */
export interface NotificationStreamEvent {
  id: number;
  notification: Schemas['NotificationResponse'];
}

/**
 * The notifications of `GET /api/v1/notifications/stream` as they arrive: pass the `response` of
 * `api.GET('/api/v1/notifications/stream', { parseAs: 'stream', signal })`. Heartbeats and other
 * events are skipped; reconnect with the last `id` as `Last-Event-ID` to receive what was missed.
 */
export async function* notificationEvents(response: Response): AsyncGenerator<NotificationStreamEvent> {
  if (!response.body) return;
  for await (const { event, data } of readServerSentEvents(response.body)) {
    if (event !== 'notification') continue;
    const notification = JSON.parse(data) as Schemas['NotificationResponse'];
    yield { id: notification.id, notification };
  }
}
