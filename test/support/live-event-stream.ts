export interface LiveEvent {
  id: string | null;
  event: string;
  data: unknown;
}

/** A Server-Sent Events stream held open over a real socket, read as it arrives; close() ends it. */
export interface LiveEventStream {
  status: number;
  contentType: string;
  events: LiveEvent[];
  /** Everything received so far, comments included. */
  text(): string;
  /** Whether the server ended the stream. */
  ended(): boolean;
  /** Resolves once `predicate` holds for what was received, or rejects after `withinMs`. */
  until(predicate: (stream: LiveEventStream) => boolean, withinMs?: number): Promise<void>;
  close(): void;
}

export async function openEventStream(
  url: string,
  headers: Record<string, string>,
): Promise<LiveEventStream> {
  const controller = new AbortController();
  const response = await fetch(url, { headers, signal: controller.signal });
  let received = '';
  let ended = false;
  const events: LiveEvent[] = [];
  const stream: LiveEventStream = {
    status: response.status,
    contentType: response.headers.get('content-type') ?? '',
    events,
    text: () => received,
    ended: () => ended,
    async until(predicate, withinMs = 10_000) {
      const deadline = Date.now() + withinMs;
      while (!predicate(stream)) {
        if (Date.now() > deadline)
          throw new Error(`stream condition not met in ${withinMs} ms; got:\n${received}`);
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    },
    close: () => controller.abort(),
  };
  if (!response.body) return stream;
  const decoder = new TextDecoder();
  let pending = '';
  void (async () => {
    try {
      for await (const chunk of response.body as AsyncIterable<Uint8Array>) {
        const text = decoder.decode(chunk, { stream: true });
        received += text;
        pending += text;
        let end: number;
        while ((end = pending.indexOf('\n\n')) >= 0) {
          const block = pending.slice(0, end);
          pending = pending.slice(end + 2);
          const fields = new Map<string, string>();
          for (const line of block.split('\n')) {
            const colon = line.indexOf(': ');
            if (colon > 0) fields.set(line.slice(0, colon), line.slice(colon + 2));
          }
          if (fields.has('event'))
            events.push({
              id: fields.get('id') ?? null,
              event: fields.get('event')!,
              data: JSON.parse(fields.get('data') ?? 'null') as unknown,
            });
        }
      }
      ended = true;
    } catch {
      // aborted by close()
    }
  })();
  return stream;
}
