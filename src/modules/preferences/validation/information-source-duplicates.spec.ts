import {
  findInformationSourceDuplicates,
  informationSourceDuplicateIssues,
} from './information-source-duplicates';

describe('findInformationSourceDuplicates', () => {
  it('finds nothing in a list of distinct types and priorities', () => {
    expect(
      findInformationSourceDuplicates([
        { type: 'news', priority: 2 },
        { type: 'earnings', priority: 1 },
      ]),
    ).toEqual([]);
  });

  it('flags the later element that repeats a priority or a type, not the first one', () => {
    const sut = findInformationSourceDuplicates([
      { type: 'news', priority: 1 },
      { type: 'earnings', priority: 2 },
      { type: 'analyst', priority: 2 },
      { type: 'news', priority: 4 },
      { type: 'earnings', priority: 1 },
    ]);

    expect(sut).toEqual([
      { index: 2, field: 'priority', value: 2 },
      { index: 3, field: 'type', value: 'news' },
      { index: 4, field: 'type', value: 'earnings' },
      { index: 4, field: 'priority', value: 1 },
    ]);
  });
});

describe('informationSourceDuplicateIssues', () => {
  it('locates each issue at the element field under the given list location', () => {
    const sut = informationSourceDuplicateIssues(
      [
        { type: 'news', priority: 1 },
        { type: 'social', priority: 1 },
      ],
      ['body', 'information_sources'],
    );

    expect(sut).toEqual([
      {
        loc: ['body', 'information_sources', 1, 'priority'],
        msg: 'Value error, priority 1 is used by more than one information source',
        type: 'value_error',
        ctx: { error: 'priority 1 is used by more than one information source' },
      },
    ]);
  });

  it('has nothing to report when the list is absent', () => {
    expect(informationSourceDuplicateIssues(undefined, ['body', 'information_sources'])).toEqual([]);
  });
});
