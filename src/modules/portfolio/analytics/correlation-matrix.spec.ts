import { correlationMatrix } from './correlation-matrix';

describe('correlationMatrix', () => {
  const returns = new Map([
    ['A', [1, 2, 3]],
    ['B', [1, 3, 2]],
    ['C', [3, 2, 1]],
    ['FLAT', [5, 5, 5]],
  ]);

  it('holds the pairwise Pearson correlations, symmetric, with ones on the diagonal', () => {
    const sut = correlationMatrix(['A', 'B', 'C'], returns);
    expect(sut.symbols).toEqual(['A', 'B', 'C']);
    // A,B: 0.5 (see statistics.spec); A,C: -1; B,C: dx = [-1,1,0], dy = [1,0,-1] → -1 / 2
    const expected = [
      [1, 0.5, -1],
      [0.5, 1, -0.5],
      [-1, -0.5, 1],
    ];
    expected.forEach((row, i) => row.forEach((value, j) => expect(sut.matrix[i][j]).toBeCloseTo(value, 12)));
  });

  it('puts null where a series never moves', () => {
    const sut = correlationMatrix(['A', 'FLAT'], returns);
    expect(sut.matrix[0][1]).toBeNull();
    expect(sut.matrix[1][1]).toBeNull();
  });

  it('refuses a symbol without returns', () => {
    expect(() => correlationMatrix(['Z'], returns)).toThrow(RangeError);
  });
});
