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
  IsString,
  Matches,
  Max,
  Min,
  ValidateNested,
} from 'class-validator';
import { MARKET_SECTORS } from '../../preferences/preference-values';
import { SYMBOL_PATTERN } from '../import/transactions-csv.parser';
import { MAX_AMOUNT } from './create-transaction.dto';

export const MAX_TARGETS = 100;

export class SymbolTargetDto {
  @ApiProperty({ example: 'AAPL' })
  @IsString()
  @Matches(SYMBOL_PATTERN)
  symbol: string;

  @ApiProperty({
    example: 40,
    minimum: 0,
    maximum: 100,
    description: 'Percent of the portfolio (holdings + cash)',
  })
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @Min(0)
  @Max(100)
  weight: number;
}

export class SectorTargetDto {
  @ApiProperty({ enum: MARKET_SECTORS, example: 'technology' })
  @IsIn(MARKET_SECTORS)
  sector: string;

  @ApiProperty({
    example: 30,
    minimum: 0,
    maximum: 100,
    description: 'Percent of the portfolio (holdings + cash)',
  })
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @Min(0)
  @Max(100)
  weight: number;
}

export class RebalanceRequestDto {
  @ApiPropertyOptional({
    type: [SymbolTargetDto],
    description:
      'Target weight per symbol, summing to 100 ± 0.01; held symbols not listed target 0. Give this or sector_targets.',
  })
  @IsOptional()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(MAX_TARGETS)
  @ValidateNested({ each: true })
  @Type(() => SymbolTargetDto)
  targets?: SymbolTargetDto[];

  @ApiPropertyOptional({
    type: [SectorTargetDto],
    description:
      'Target weight per sector, summing to 100 ± 0.01; each sector target is spread over the symbols held in it in ' +
      'proportion to their market value; held sectors not listed target 0. Give this or targets.',
  })
  @IsOptional()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(MAX_TARGETS)
  @ValidateNested({ each: true })
  @Type(() => SectorTargetDto)
  sector_targets?: SectorTargetDto[];

  @ApiPropertyOptional({
    default: 0,
    minimum: 0,
    maximum: 100,
    description: 'Percentage points of drift left alone: a symbol within it is not traded',
  })
  @IsOptional()
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @Min(0)
  @Max(100)
  tolerance?: number;

  @ApiPropertyOptional({ default: 0, minimum: 0, description: 'Extra USD to invest' })
  @IsOptional()
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @Min(0)
  @Max(MAX_AMOUNT)
  cash?: number;

  @ApiPropertyOptional({ default: false, description: 'Plan only: record nothing' })
  @IsOptional()
  @IsBoolean()
  dry_run?: boolean;

  @ApiPropertyOptional({
    default: false,
    description: 'Allow fractional shares (6 decimals); whole shares otherwise',
  })
  @IsOptional()
  @IsBoolean()
  fractional?: boolean;
}
