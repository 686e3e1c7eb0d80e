import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsIn, ValidateIf } from 'class-validator';
import { COST_BASIS_METHODS, CostBasisMethod } from '../analytics/cost-basis';

/** May be left out, but not sent as null. */
const OmittedOrGiven = () => ValidateIf((_dto: object, value: unknown) => value !== undefined);

/** Any subset of the settings; the others keep their values. */
export class UpdatePortfolioSettingsDto {
  @ApiPropertyOptional({ enum: COST_BASIS_METHODS, example: 'specific' })
  @OmittedOrGiven()
  @IsIn(COST_BASIS_METHODS)
  cost_basis_method?: CostBasisMethod;

  @ApiPropertyOptional({ example: true })
  @OmittedOrGiven()
  @IsBoolean()
  strict_cash?: boolean;
}
