import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import {
  AlertFrequency,
  AnalysisDepth,
  BrokeragePlatform,
  DailySummaryTime,
  EsgImportance,
  ExperienceLevel,
  ExplanationStyle,
  GeographicFocus,
  InformationSource,
  InvestmentStyle,
  InvestmentType,
  MarketSector,
  PrivacyLevel,
  RiskTolerance,
} from '../preference-values';

/** One user's investment preferences; `user_id` is unique, so a user has at most one row. */
@Entity({ name: 'user_preferences' })
export class UserPreferencesEntity {
  @PrimaryGeneratedColumn({ type: 'integer' })
  id: number;

  @Column({ type: 'integer', unique: true })
  userId: number;

  @Column({ type: 'varchar', length: 32 })
  experienceLevel: ExperienceLevel;

  @Column({ type: 'varchar', length: 32 })
  investmentStyle: InvestmentStyle;

  @Column({ type: 'varchar', length: 32 })
  riskTolerance: RiskTolerance;

  @Column({ type: 'varchar', length: 32, nullable: true })
  brokeragePlatform: BrokeragePlatform | null;

  @Column({ type: 'jsonb' })
  investmentTypes: InvestmentType[];

  @Column({ type: 'varchar', length: 32 })
  analysisDepth: AnalysisDepth;

  @Column({ type: 'jsonb' })
  informationSources: InformationSource[];

  @Column({ type: 'jsonb' })
  marketSectors: MarketSector[];

  @Column({ type: 'varchar', length: 32 })
  geographicFocus: GeographicFocus;

  @Column({ type: 'varchar', length: 32 })
  dailySummaryTime: DailySummaryTime;

  @Column({ type: 'varchar', length: 32 })
  alertFrequency: AlertFrequency;

  @Column({ type: 'varchar', length: 32 })
  esgImportance: EsgImportance;

  @Column({ type: 'varchar', length: 32 })
  explanationStyle: ExplanationStyle;

  @Column({ type: 'jsonb' })
  watchlist: string[];

  @Column({ type: 'varchar', length: 32 })
  privacyLevel: PrivacyLevel;

  @Column({ type: 'boolean', default: false })
  onboardingCompleted: boolean;

  @Column({ type: 'timestamptz', nullable: true })
  onboardingCompletedAt: Date | null;

  @Column({ type: 'timestamptz' })
  createdAt: Date;

  @Column({ type: 'timestamptz' })
  updatedAt: Date;
}
