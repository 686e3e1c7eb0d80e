import type { FastifyReply } from 'fastify';
import { openEventStream } from '../../common/http/event-stream-reply';
import { Notification } from './notification';

/** What the stream needs: what the user missed after an id, and word of new ones. */
export interface NotificationSource {
  since(afterId: number): Promise<Notification[]>;
  latestId(): Promise<number>;
  /** `end` is called when the service shuts down. */
  subscribe(onNew: () => void, end: () => void): () => void;
}

/** Notifications sent per read while catching up; the rest follow in the next reads. */
const CATCH_UP_BATCH = 100;

/**
 * Streams a user's notifications as Server-Sent Events, each `event: notification` with its id as
 * `id:`. With `lastEventId` (the Last-Event-ID header of a reconnecting client) it first sends
 * every notification after that one; without, it starts from now. A comment line every
 * `heartbeatMs` keeps proxies from closing an idle stream. Ends when the client goes away.
 */
export async function streamNotifications(
  reply: FastifyReply,
  requestId: string,
  source: NotificationSource,
  options: {
    lastEventId: number | null;
    heartbeatMs: number;
    toEvent: (notification: Notification) => unknown;
  },
): Promise<void> {
  // Taken before the reply is hijacked, so that a refusal (429) is an ordinary error answer.
  let wake: () => void = () => undefined;
  let end: () => void = () => undefined;
  const unsubscribe = source.subscribe(
    () => wake(),
    () => end(),
  );
  let sentId: number;
  try {
    sentId = options.lastEventId ?? (await source.latestId());
  } catch (error) {
    unsubscribe();
    throw error;
  }
  const raw = openEventStream(reply, requestId);
  raw.write(`retry: 2000\n\n`);

  let reading: Promise<void> = Promise.resolve();
  let again = false;
  const catchUp = (): void => {
    again = true;
    reading = reading
      .then(async () => {
        while (again && !raw.writableEnded) {
          again = false;
          for (;;) {
            const batch = await source.since(sentId);
            for (const notification of batch) {
              if (raw.writableEnded) return;
              raw.write(
                `id: ${notification.id}\nevent: notification\ndata: ${JSON.stringify(options.toEvent(notification))}\n\n`,
              );
              sentId = notification.id;
            }
            if (batch.length < CATCH_UP_BATCH) break;
          }
        }
      })
      .catch(() => {
        raw.end();
      });
  };

  wake = catchUp;
  end = () => raw.end();
  const heartbeat = setInterval(() => {
    if (!raw.writableEnded) raw.write(`: heartbeat\n\n`);
  }, options.heartbeatMs);
  await new Promise<void>((resolve) => {
    raw.on('close', resolve);
    if (raw.destroyed) resolve();
    else catchUp();
  });
  clearInterval(heartbeat);
  unsubscribe();
}
