import { ANSWER_WITHIN_MS } from '../setup/http-call';

export interface StreamedEvent {
  event: string;
  data: unknown;
}

/** POSTs JSON and reads a whole Server-Sent Events answer over a real socket, bounded in time. */
export async function readEventStream(
  url: string,
  options: { headers: Record<string, string>; body: object },
): Promise<{ status: number; contentType: string; text: string; events: StreamedEvent[] }> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...options.headers },
    body: JSON.stringify(options.body),
    signal: AbortSignal.timeout(ANSWER_WITHIN_MS),
  });
  const text = await response.text();
  const events = text
    .split('\n\n')
    .filter((block) => block.startsWith('event: '))
    .map((block) => {
      const [eventLine, dataLine] = block.split('\n');
      return {
        event: eventLine.slice('event: '.length),
        data: JSON.parse(dataLine.slice('data: '.length)) as unknown,
      };
    });
  return { status: response.status, contentType: response.headers.get('content-type') ?? '', text, events };
}
