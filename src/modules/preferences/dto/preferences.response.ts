import { ApiProperty } from '@nestjs/swagger';
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
}
