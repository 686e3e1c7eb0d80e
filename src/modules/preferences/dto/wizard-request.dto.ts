import { ApiPropertyOptional, ApiProperty, PickType } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsBoolean, IsObject, IsOptional, ValidateNested } from 'class-validator';
import { WIZARD_STEP_FIELDS, WizardRequest } from '../wizard-steps';
import { UpdatePreferencesDto } from './update-preferences.dto';

class EssentialStepDto extends PickType(UpdatePreferencesDto, WIZARD_STEP_FIELDS.essential) {}
class PortfolioStepDto extends PickType(UpdatePreferencesDto, WIZARD_STEP_FIELDS.portfolio) {}
class InformationStepDto extends PickType(UpdatePreferencesDto, WIZARD_STEP_FIELDS.information) {}
class CommunicationStepDto extends PickType(UpdatePreferencesDto, WIZARD_STEP_FIELDS.communication) {}
class AdvancedStepDto extends PickType(UpdatePreferencesDto, WIZARD_STEP_FIELDS.advanced) {}

/** Each step carries only its own fields; any other step name or field is rejected. */
class WizardStepDataDto {
  @ApiPropertyOptional({ type: () => EssentialStepDto })
  @IsOptional()
  @ValidateNested()
  @Type(() => EssentialStepDto)
  essential?: EssentialStepDto;

  @ApiPropertyOptional({ type: () => PortfolioStepDto })
  @IsOptional()
  @ValidateNested()
  @Type(() => PortfolioStepDto)
  portfolio?: PortfolioStepDto;

  @ApiPropertyOptional({ type: () => InformationStepDto })
  @IsOptional()
  @ValidateNested()
  @Type(() => InformationStepDto)
  information?: InformationStepDto;

  @ApiPropertyOptional({ type: () => CommunicationStepDto })
  @IsOptional()
  @ValidateNested()
  @Type(() => CommunicationStepDto)
  communication?: CommunicationStepDto;

  @ApiPropertyOptional({ type: () => AdvancedStepDto })
  @IsOptional()
  @ValidateNested()
  @Type(() => AdvancedStepDto)
  advanced?: AdvancedStepDto;
}

export class WizardRequestDto implements WizardRequest {
  @ApiProperty({ type: () => WizardStepDataDto })
  @IsObject()
  @ValidateNested()
  @Type(() => WizardStepDataDto)
  step_data: WizardStepDataDto;

  @ApiPropertyOptional({
    default: false,
    description: 'true marks onboarding as completed; false leaves the onboarding state as it is',
  })
  @IsOptional()
  @IsBoolean()
  complete?: boolean;
}
