import { defaultsForLevel } from './level-defaults';
import { findMisplacedWizardKeys, mergeWizardSteps, WIZARD_STEP_FIELDS } from './wizard-steps';

describe('WIZARD_STEP_FIELDS', () => {
  it('puts every preference field in exactly one step', () => {
    const stepFields: string[] = Object.values(WIZARD_STEP_FIELDS).flat();

    expect([...stepFields].sort()).toEqual(Object.keys(defaultsForLevel('beginner')).sort());
  });
});

describe('findMisplacedWizardKeys', () => {
  it('accepts known steps carrying their own fields, and empty steps', () => {
    expect(
      findMisplacedWizardKeys({
        essential: { experience_level: 'advanced', risk_tolerance: 'aggressive' },
        portfolio: { watchlist: ['AAPL'], brokerage_platform: null },
        information: { geographic_focus: 'global' },
        communication: {},
        advanced: { privacy_level: 'minimal' },
      }),
    ).toEqual([]);
  });

  it('reports unknown steps and fields sent in the wrong step, by path', () => {
    expect(
      findMisplacedWizardKeys({
        essential: { experience_level: 'advanced', watchlist: ['AAPL'] },
        bonus: { risk_tolerance: 'moderate' },
        advanced: { privacy_level: 'full', nickname: 'x' },
      }),
    ).toEqual([['essential', 'watchlist'], ['bonus'], ['advanced', 'nickname']]);
  });

  it('leaves steps that are not objects to the type checks', () => {
    expect(findMisplacedWizardKeys({ essential: 'beginner', portfolio: null, advanced: [] })).toEqual([]);
  });

  it('does not take inherited object keys for step names', () => {
    expect(findMisplacedWizardKeys({ toString: {} })).toEqual([['toString']]);
  });
});

describe('mergeWizardSteps', () => {
  it('collects the fields of all steps and drops the undefined ones', () => {
    expect(
      mergeWizardSteps({
        essential: { experience_level: 'advanced', risk_tolerance: undefined },
        portfolio: { brokerage_platform: null },
        advanced: { privacy_level: 'limited' },
      }),
    ).toEqual({ experience_level: 'advanced', brokerage_platform: null, privacy_level: 'limited' });
  });
});
