import { OmitType } from '@nestjs/swagger';
import { PreferenceFieldsDto } from './preference-fields.dto';

/** The default value of every preference field for one level; the level itself is the request. */
export class PreferenceDefaultsResponse extends OmitType(PreferenceFieldsDto, [
  'experience_level',
] as const) {}
