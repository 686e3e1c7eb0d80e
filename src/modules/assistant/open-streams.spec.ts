import { RateLimitedError } from '../../common/errors/domain-errors';
import { AssistantConfig } from '../../config/assistant.config';
import { OpenStreams } from './open-streams';

describe('OpenStreams', () => {
  const sut = () => new OpenStreams({ streamsPerUser: 2, streamsTotal: 3 } as AssistantConfig);

  it('refuses a user beyond their streams, then everyone beyond the total, each with Retry-After 5', () => {
    const streams = sut();
    streams.open(1);
    streams.open(1);
    expect(() => streams.open(1)).toThrow(
      new RateLimitedError('Too many open chat streams: at most 2 per user, try again later', 5),
    );
    streams.open(2);
    expect(() => streams.open(3)).toThrow('Too many open chat streams, try again later');
  });

  it('gives a slot back once when a stream closes, however often its close is called', () => {
    const streams = sut();
    const close = streams.open(1);
    streams.open(1);
    close();
    close();
    streams.open(1);
    expect(() => streams.open(1)).toThrow(RateLimitedError);
    streams.open(2);
    expect(() => streams.open(2)).toThrow('Too many open chat streams, try again later');
  });
});
