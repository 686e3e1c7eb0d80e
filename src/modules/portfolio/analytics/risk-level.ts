// Risk level from volatility and concentration. Each dimension gets a level from the thresholds
// below; the portfolio takes the higher of the two, because a concentrated book of calm stocks
// carries idiosyncratic risk that a short volatility history does not show.

export const RISK_LEVELS = ['conservative', 'moderate', 'aggressive'] as const;
export type RiskLevel = (typeof RISK_LEVELS)[number];

export const RISK_LEVEL_THRESHOLDS = {
  /** Annualised volatility (fraction): moderate from 12%, aggressive from 20%. */
  volatility: { moderate: 0.12, aggressive: 0.2 },
  /** Largest single weight (fraction): moderate above 20%, aggressive above 40%. */
  largestWeight: { moderate: 0.2, aggressive: 0.4 },
  /** Effective number of holdings (1 / Herfindahl): moderate below 10, aggressive below 4. */
  effectiveHoldings: { moderate: 10, aggressive: 4 },
} as const;

export interface RiskLevelInput {
  /** Annualised volatility as a fraction; null when the history is too short to measure it. */
  volatility: number | null;
  largestWeight: { symbol: string; weight: number };
  effectiveHoldings: number;
}

export interface RiskLevelAssessment {
  riskLevel: RiskLevel;
  notes: string[];
}

export function assessRiskLevel(input: RiskLevelInput): RiskLevelAssessment {
  const {
    volatility: volatilityLimits,
    largestWeight: weightLimits,
    effectiveHoldings: holdingLimits,
  } = RISK_LEVEL_THRESHOLDS;
  const notes: string[] = [];
  const levels: RiskLevel[] = [];

  if (input.volatility !== null) {
    const level = levelFromAscending(
      input.volatility,
      volatilityLimits.moderate,
      volatilityLimits.aggressive,
    );
    levels.push(level);
    notes.push(
      `Annualised volatility of ${percent(input.volatility)} is ${level} (moderate from 12%, aggressive from 20%).`,
    );
  } else {
    notes.push(
      'Volatility could not be measured (too little price history); the risk level reflects concentration only.',
    );
  }

  const weightLevel = levelFromAscending(
    input.largestWeight.weight,
    weightLimits.moderate,
    weightLimits.aggressive,
    true,
  );
  levels.push(weightLevel);
  notes.push(
    `Largest holding ${input.largestWeight.symbol} is ${percent(input.largestWeight.weight)} of the portfolio (${weightLevel}; moderate above 20%, aggressive above 40%).`,
  );

  const holdingsLevel: RiskLevel =
    input.effectiveHoldings < holdingLimits.aggressive
      ? 'aggressive'
      : input.effectiveHoldings < holdingLimits.moderate
        ? 'moderate'
        : 'conservative';
  levels.push(holdingsLevel);
  notes.push(
    `Effective number of holdings is ${input.effectiveHoldings.toFixed(1)} (${holdingsLevel}; moderate below 10, aggressive below 4).`,
  );

  return { riskLevel: highestLevel(levels), notes };
}

/** Whether the portfolio's level equals the stated tolerance, with a sentence saying how they compare. */
export function compareWithRiskTolerance(
  riskLevel: RiskLevel,
  riskTolerance: RiskLevel,
): { matches: boolean; note: string } {
  const difference = RISK_LEVELS.indexOf(riskLevel) - RISK_LEVELS.indexOf(riskTolerance);
  if (difference === 0) {
    return {
      matches: true,
      note: `The ${riskLevel} risk level matches your ${riskTolerance} risk tolerance.`,
    };
  }
  const direction = difference > 0 ? 'above' : 'below';
  return {
    matches: false,
    note: `The ${riskLevel} risk level is ${direction} your ${riskTolerance} risk tolerance.`,
  };
}

function levelFromAscending(
  value: number,
  moderate: number,
  aggressive: number,
  strictly = false,
): RiskLevel {
  const reaches = (limit: number) => (strictly ? value > limit : value >= limit);
  if (reaches(aggressive)) return 'aggressive';
  if (reaches(moderate)) return 'moderate';
  return 'conservative';
}

function highestLevel(levels: readonly RiskLevel[]): RiskLevel {
  return RISK_LEVELS[Math.max(...levels.map((level) => RISK_LEVELS.indexOf(level)))];
}

function percent(fraction: number): string {
  return `${(fraction * 100).toFixed(1)}%`;
}
