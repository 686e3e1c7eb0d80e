import { ApiProperty } from '@nestjs/swagger';
import type { Preferences } from '../preferences';
import { PreferenceFieldsDto } from './preference-fields.dto';

export class PreferencesResponse extends PreferenceFieldsDto {
  @ApiProperty({ type: 'integer' })
  id: number;

  @ApiProperty({ type: 'integer' })
  user_id: number;

  @ApiProperty({ description: 'Set by the wizard when it is sent with complete: true' })
  onboarding_completed: boolean;

  @ApiProperty({ type: String, format: 'date-time', nullable: true })
  onboarding_completed_at: string | null;

  @ApiProperty({ type: String, format: 'date-time' })
  created_at: string;

  @ApiProperty({ type: String, format: 'date-time', description: 'Refreshed by every change' })
  updated_at: string;

  static from(preferences: Preferences): PreferencesResponse {
    const { id, userId, onboardingCompleted, onboardingCompletedAt, createdAt, updatedAt, ...fields } =
      preferences;
    return {
      id,
      user_id: userId,
      ...fields,
      onboarding_completed: onboardingCompleted,
      onboarding_completed_at: onboardingCompletedAt,
      created_at: createdAt,
      updated_at: updatedAt,
    };
  }
}
