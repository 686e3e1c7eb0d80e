import { PartialType } from '@nestjs/swagger';
import { PreferenceFieldsDto } from './preference-fields.dto';

/** Any subset of the fields; an absent field keeps its value, an explicit null is only valid for brokerage. */
export class UpdatePreferencesDto extends PartialType(PreferenceFieldsDto, { skipNullProperties: false }) {}
