import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsNumber,
  IsOptional,
  ValidateIf,
  IsString,
  Matches,
  Max,
  Min,
  ValidateNested,
} from 'class-validator';
import { MARKET_SECTORS } from '../../preferences';
import { SYMBOL_PATTERN } from '../import/transactions-csv.parser';
import { MAX_CASH } from '../ledger-limits';
import { AccountIdField } from './account-id.field';

export const MAX_TARGETS = 100;

/** A target's share: a percent of the portfolio (holdings + cash). */
const TargetWeightField = (example: number) =>
  applyDecorators(
    ApiProperty({
      example,
      minimum: 0,
      maximum: 100,
      description: 'Percent of the portfolio (holdings + cash)',
    }),
    IsNumber({ allowNaN: false, allowInfinity: false }),
    Min(0),
    Max(100),
  );

/** An optional list of 1 to MAX_TARGETS targets of one kind, each validated as `type`. */
const TargetListField = (type: new () => object, description: string) =>
  applyDecorators(
    ApiPropertyOptional({ type: [type], description }),
    IsOptional(),
    IsArray(),
    ArrayMinSize(1),
    ArrayMaxSize(MAX_TARGETS),
    ValidateNested({ each: true }),
    Type(() => type),
  );

export class SymbolTargetDto {
  @ApiProperty({ example: 'AAPL' })
  @IsString()
  @Matches(SYMBOL_PATTERN)
  symbol: string;

  @TargetWeightField(40)
  weight: number;
}

export class SectorTargetDto {
  @ApiProperty({ enum: MARKET_SECTORS, example: 'technology' })
  @IsIn(MARKET_SECTORS)
  sector: string;

  @TargetWeightField(30)
  weight: number;
}

/** May be left out, but not sent as null: `dry_run: null` must never mean "execute". */
const OmittedOrGiven = () => ValidateIf((_dto: object, value: unknown) => value !== undefined);

export class RebalanceRequestDto {
  @AccountIdField(
    'Rebalance this account alone, and record the trades in it. Without it the plan is of every account ' +
      'combined and executed trades go to the default account.',
  )
  account_id?: number;

  @TargetListField(
    SymbolTargetDto,
    'Target weight per symbol, summing to 100 ± 0.01; held symbols not listed target 0. Give this or sector_targets.',
  )
  targets?: SymbolTargetDto[];

  @TargetListField(
    SectorTargetDto,
    'Target weight per sector, summing to 100 ± 0.01; each sector target is spread over the symbols held in it in ' +
      'proportion to their market value; held sectors not listed target 0. Give this or targets.',
  )
  sector_targets?: SectorTargetDto[];

  @ApiPropertyOptional({
    default: 0,
    minimum: 0,
    maximum: 100,
    description: 'Percentage points of drift left alone: a symbol within it is not traded',
  })
  @OmittedOrGiven()
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @Min(0)
  @Max(100)
  tolerance?: number;

  @ApiPropertyOptional({ default: 0, minimum: 0, maximum: MAX_CASH, description: 'Extra USD to invest' })
  @OmittedOrGiven()
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @Min(0)
  @Max(MAX_CASH)
  cash?: number;

  @ApiPropertyOptional({ default: false, description: 'Plan only: record nothing' })
  @OmittedOrGiven()
  @IsBoolean()
  dry_run?: boolean;

  @ApiPropertyOptional({
    default: false,
    description: 'Allow fractional shares (6 decimals); whole shares otherwise',
  })
  @OmittedOrGiven()
  @IsBoolean()
  fractional?: boolean;
}
