import { IntersectionType, OmitType, PartialType, PickType } from '@nestjs/swagger';
import { PreferenceFieldsDto } from './preference-fields.dto';

/** `experience_level` is required; every other field falls back to that level's default. */
export class CreatePreferencesDto extends IntersectionType(
  PickType(PreferenceFieldsDto, ['experience_level'] as const),
  PartialType(OmitType(PreferenceFieldsDto, ['experience_level'] as const), { skipNullProperties: false }),
) {}
