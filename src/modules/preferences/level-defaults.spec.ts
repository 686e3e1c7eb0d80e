import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { PreferenceFieldsDto } from './dto/preference-fields.dto';
import { defaultsForLevel } from './level-defaults';
import { EXPERIENCE_LEVELS, INVESTMENT_TYPES, MARKET_SECTORS } from './preference-values';
import { findInformationSourceDuplicates } from './validation/information-source-duplicates';

describe('defaultsForLevel', () => {
  it('gives the beginner defaults of the spec table', () => {
    expect(defaultsForLevel('beginner')).toEqual({
      experience_level: 'beginner',
      investment_style: 'long-term',
      risk_tolerance: 'conservative',
      brokerage_platform: null,
      investment_types: ['stocks', 'etfs'],
      analysis_depth: 'simple',
      information_sources: [
        { type: 'news', priority: 1 },
        { type: 'earnings', priority: 2 },
        { type: 'analyst', priority: 3 },
      ],
      market_sectors: ['technology', 'healthcare', 'finance'],
      geographic_focus: 'us',
      daily_summary_time: 'evening',
      alert_frequency: 'daily',
      esg_importance: 'unsure',
      explanation_style: 'step-by-step',
      watchlist: [],
      privacy_level: 'full',
    });
  });

  it('gives the intermediate defaults chosen where the spec is open', () => {
    expect(defaultsForLevel('intermediate')).toEqual({
      experience_level: 'intermediate',
      investment_style: 'long-term',
      risk_tolerance: 'moderate',
      brokerage_platform: null,
      investment_types: ['stocks', 'etfs', 'options'],
      analysis_depth: 'detailed',
      information_sources: [
        { type: 'news', priority: 1 },
        { type: 'earnings', priority: 2 },
        { type: 'analyst', priority: 3 },
        { type: 'technical', priority: 4 },
      ],
      market_sectors: ['technology', 'healthcare', 'finance', 'energy', 'consumer_discretionary'],
      geographic_focus: 'us-international',
      daily_summary_time: 'morning',
      alert_frequency: 'daily',
      esg_importance: 'unsure',
      explanation_style: 'key-points',
      watchlist: [],
      privacy_level: 'full',
    });
  });

  it('gives the advanced defaults: every investment type and sector, real-time alerts', () => {
    expect(defaultsForLevel('advanced')).toEqual({
      experience_level: 'advanced',
      investment_style: 'active',
      risk_tolerance: 'aggressive',
      brokerage_platform: null,
      investment_types: [...INVESTMENT_TYPES],
      analysis_depth: 'technical',
      information_sources: [
        { type: 'technical', priority: 1 },
        { type: 'earnings', priority: 2 },
        { type: 'news', priority: 3 },
        { type: 'analyst', priority: 4 },
        { type: 'economic', priority: 5 },
        { type: 'social', priority: 6 },
      ],
      market_sectors: [...MARKET_SECTORS],
      geographic_focus: 'global',
      daily_summary_time: 'morning',
      alert_frequency: 'real-time',
      esg_importance: 'unsure',
      explanation_style: 'bottom-line-first',
      watchlist: [],
      privacy_level: 'full',
    });
    expect(defaultsForLevel('advanced').investment_types).toEqual(
      expect.arrayContaining(['futures', 'crypto']),
    );
  });

  it.each(EXPERIENCE_LEVELS)('gives %s defaults that the request validators accept', (level) => {
    const sut = defaultsForLevel(level);

    expect(validateSync(plainToInstance(PreferenceFieldsDto, sut))).toEqual([]);
    expect(findInformationSourceDuplicates(sut.information_sources)).toEqual([]);
  });

  it('returns a fresh copy each time, so a caller cannot alter the table', () => {
    const first = defaultsForLevel('beginner');
    first.investment_types.push('crypto');
    first.information_sources[0].priority = 6;
    first.watchlist.push('AAPL');

    const second = defaultsForLevel('beginner');

    expect(second.investment_types).toEqual(['stocks', 'etfs']);
    expect(second.information_sources[0]).toEqual({ type: 'news', priority: 1 });
    expect(second.watchlist).toEqual([]);
  });
});
