import { seriesFingerprint, seriesVersion } from './same-series';

describe('seriesVersion', () => {
  it('is the same for the very same frozen series, and another for a refetched one of equal content', () => {
    const series = Object.freeze([{ date: '2026-03-06', close: 1.5 }]);
    const refetched = Object.freeze([{ date: '2026-03-06', close: 1.5 }]);
    expect(seriesVersion(series)).toBe(seriesVersion(series));
    expect(seriesVersion(refetched)).not.toBe(seriesVersion(series));
  });

  it('is new on every ask for a series that is not frozen, which may have changed in place', () => {
    const series = [{ date: '2026-03-06', close: 1.5 }];
    const before = seriesVersion(series);
    series.push({ date: '2026-03-09', close: 1.6 });
    expect(seriesVersion(series)).not.toBe(before);
  });
});

describe('seriesFingerprint', () => {
  it('names each key with its series’ version, in order', () => {
    const a = Object.freeze([{ date: '2026-03-06', close: 1 }]);
    const b = Object.freeze([{ date: '2026-03-06', close: 2 }]);
    const fingerprint = seriesFingerprint(
      new Map([
        ['A', a],
        ['B', b],
      ]),
    );
    expect(
      seriesFingerprint(
        new Map([
          ['A', a],
          ['B', b],
        ]),
      ),
    ).toBe(fingerprint);
    expect(
      seriesFingerprint(
        new Map([
          ['B', b],
          ['A', a],
        ]),
      ),
    ).not.toBe(fingerprint);
    expect(
      seriesFingerprint(
        new Map([
          ['A', a],
          ['B', a],
        ]),
      ),
    ).not.toBe(fingerprint);
  });
});
