import { chatEvents, readServerSentEvents, ServerSentEvent } from '../../client';

function streamOf(chunks: string[]): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(encoder.encode(chunk));
      controller.close();
    },
  });
}

async function eventsOf(chunks: string[]): Promise<ServerSentEvent[]> {
  const events: ServerSentEvent[] = [];
  for await (const event of readServerSentEvents(streamOf(chunks))) events.push(event);
  return events;
}

describe("the typed client's Server-Sent Events parser", () => {
  const text =
    ': a comment\r\nevent: delta\r\ndata: {"text":"Hel"}\r\n\r\n' +
    'event: delta\ndata: {"text":"lo"}\n\n' +
    'data: first\rdata:second\r\r' +
    'event: done\ndata: {}\n\n' +
    'event: unfinished\ndata: lost';
  const expected = [
    { event: 'delta', data: '{"text":"Hel"}' },
    { event: 'delta', data: '{"text":"lo"}' },
    { event: 'message', data: 'first\nsecond' },
    { event: 'done', data: '{}' },
  ];

  it('reads events whatever the line endings, joins data lines and skips comments', async () => {
    expect(await eventsOf([text])).toEqual(expected);
  });

  it('gives the same events however the body is cut into chunks', async () => {
    for (let cut = 1; cut < text.length; cut += 1) {
      expect(await eventsOf([text.slice(0, cut), text.slice(cut)])).toEqual(expected);
    }
    expect(await eventsOf([...text])).toEqual(expected);
  });

  it('parses the chat events of a response as JSON', async () => {
    const response = new Response(
      streamOf([
        'event: delta\ndata: {"text":"Hi"}\n\nevent: error\ndata: {"detail":"Internal server error occurred"}\n\n',
      ]),
    );
    const events = [];
    for await (const event of chatEvents(response)) events.push(event);
    expect(events).toEqual([
      { event: 'delta', data: { text: 'Hi' } },
      { event: 'error', data: { detail: 'Internal server error occurred' } },
    ]);
  });
});
