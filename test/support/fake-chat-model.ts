import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';

/** The ports tried by default; the assistant's tests own 42000–42999. */
const FIRST_PORT = 42_000;
const LAST_PORT = 42_999;

/** One scripted reply of the fake model to one Chat Completions request. */
export type ModelReply =
  | { kind: 'text'; text: string }
  | { kind: 'tool_calls'; calls: { name: string; arguments: string }[] }
  | { kind: 'status'; status: number; body?: string }
  /** Each `delta` object sent as it is, in its own chunk: for replies no honest model sends. */
  | { kind: 'deltas'; deltas: object[] }
  | { kind: 'hang' };

export interface RecordedRequest {
  path: string;
  authorization: string | undefined;
  body: {
    model: string;
    stream: boolean;
    max_tokens: number;
    messages: { role: string; content: string | null; tool_call_id?: string; tool_calls?: unknown[] }[];
    tools?: { function: { name: string } }[];
  };
}

/**
 * A local server that speaks the OpenAI Chat Completions streaming protocol and replays scripted
 * exchanges in order: text in a few `delta.content` chunks, tool calls split into fragments the
 * way OpenAI streams them, an error status, or no answer at all (for timeouts). Every request
 * body is recorded, so tests can inspect exactly what reached the model.
 */
export class FakeChatModel {
  readonly requests: RecordedRequest[] = [];
  private script: ModelReply[] = [];
  private server: Server | null = null;
  private readonly hanging = new Set<ServerResponse>();
  port = 0;

  constructor(
    private readonly firstPort = FIRST_PORT,
    private readonly lastPort = LAST_PORT,
  ) {}

  get baseUrl(): string {
    return `http://127.0.0.1:${this.port}/v1`;
  }

  /** The replies to the next requests, in order; a request beyond the script gets a 500. */
  replyWith(...replies: ModelReply[]): void {
    this.script = replies;
    this.requests.length = 0;
  }

  async start(): Promise<void> {
    for (let port = this.firstPort; port <= this.lastPort; port += 1) {
      const server = createServer((request, response) => void this.handle(request, response));
      const listening = await new Promise<boolean>((resolve) => {
        server.once('error', () => resolve(false));
        server.listen(port, '127.0.0.1', () => resolve(true));
      });
      if (listening) {
        this.server = server;
        this.port = port;
        return;
      }
    }
    throw new Error(`No free port for the fake model in ${this.firstPort}-${this.lastPort}`);
  }

  async stop(): Promise<void> {
    for (const response of this.hanging) response.destroy();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  private async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    let raw = '';
    for await (const chunk of request) raw += chunk;
    this.requests.push({
      path: request.url ?? '',
      authorization: request.headers.authorization,
      body: JSON.parse(raw) as RecordedRequest['body'],
    });
    const reply = this.script.shift() ?? { kind: 'status', status: 500 };
    if (reply.kind === 'hang') {
      this.hanging.add(response);
      return;
    }
    if (reply.kind === 'status') {
      response.writeHead(reply.status, { 'content-type': 'application/json' });
      response.end(reply.body ?? JSON.stringify({ error: { message: 'scripted failure' } }));
      return;
    }
    response.writeHead(200, { 'content-type': 'text/event-stream' });
    const send = (delta: object, finish: string | null = null) =>
      response.write(
        `data: ${JSON.stringify({ id: 'chatcmpl-fake', object: 'chat.completion.chunk', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`,
      );
    send({ role: 'assistant', content: '' });
    if (reply.kind === 'deltas') {
      for (const delta of reply.deltas) send(delta);
      send({}, 'stop');
    } else if (reply.kind === 'text') {
      for (const piece of reply.text.match(/.{1,12}/gs) ?? []) send({ content: piece });
      send({}, 'stop');
    } else {
      reply.calls.forEach((call, index) => {
        const half = Math.ceil(call.arguments.length / 2);
        send({
          tool_calls: [
            { index, id: `call_${index}`, type: 'function', function: { name: call.name, arguments: '' } },
          ],
        });
        send({ tool_calls: [{ index, function: { arguments: call.arguments.slice(0, half) } }] });
        send({ tool_calls: [{ index, function: { arguments: call.arguments.slice(half) } }] });
      });
      send({}, 'tool_calls');
    }
    response.end('data: [DONE]\n\n');
  }
}
