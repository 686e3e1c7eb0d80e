import { registerAs } from '@nestjs/config';
import { Transform } from 'class-transformer';
import { IsInt, IsNumber, IsOptional, Max, Min } from 'class-validator';
import { IntVar, numberOrUnset, readEnv } from './env';

class PortfolioEnv {
  @IsOptional()
  @Transform(numberOrUnset)
  @IsNumber({}, { message: 'RISK_FREE_RATE must be a number (an annual rate, e.g. 0.02 for 2%)' })
  @Min(-0.05, { message: 'RISK_FREE_RATE must be at least -0.05' })
  @Max(0.5, { message: 'RISK_FREE_RATE must be at most 0.5 (it is a fraction: 0.02 means 2%)' })
  RISK_FREE_RATE?: number;

  @IsOptional()
  @Transform(numberOrUnset)
  @IsInt({ message: 'PORTFOLIO_IMPORT_MAX_ROWS must be an integer' })
  @Min(1, { message: 'PORTFOLIO_IMPORT_MAX_ROWS must be at least 1' })
  @Max(100_000, { message: 'PORTFOLIO_IMPORT_MAX_ROWS must be at most 100000' })
  PORTFOLIO_IMPORT_MAX_ROWS?: number;

  @IntVar({ min: 1, max: 10_000_000 })
  PORTFOLIO_MAX_TRANSACTIONS?: number;

  @IntVar({ min: 1, max: 1_000_000 })
  PORTFOLIO_BROKER_IMPORT_MAX_ROWS?: number;
}

export const portfolioConfig = registerAs('portfolio', () => {
  const env = readEnv(PortfolioEnv);
  return {
    /** Annual risk-free rate for Sharpe and Sortino, as a fraction. */
    riskFreeRate: env.RISK_FREE_RATE ?? 0.02,
    importMaxRows: env.PORTFOLIO_IMPORT_MAX_ROWS ?? 5000,
    /** Most transactions one user's ledger may hold: every summary reads the whole ledger. */
    maxTransactions: env.PORTFOLIO_MAX_TRANSACTIONS ?? 100_000,
    /** Most rows one brokerage export may have (POST /portfolio/import): years of an active account. */
    brokerImportMaxRows: env.PORTFOLIO_BROKER_IMPORT_MAX_ROWS ?? 50_000,
  };
});

export type PortfolioConfig = ReturnType<typeof portfolioConfig>;
