import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsISO8601, IsOptional, IsString, Matches, Max, Min } from 'class-validator';
import { SYMBOL_PATTERN } from '../import/transactions-csv.parser';

export class ListTransactionsQuery {
  @ApiPropertyOptional({ example: 'AAPL' })
  @IsOptional()
  @IsString()
  @Matches(SYMBOL_PATTERN)
  symbol?: string;

  @ApiPropertyOptional({ format: 'date-time', description: 'Executed at or after (ISO date or date-time)' })
  @IsOptional()
  @IsISO8601({ strict: true })
  from?: string;

  @ApiPropertyOptional({
    format: 'date-time',
    description: 'Executed at or before (a bare date includes that whole day)',
  })
  @IsOptional()
  @IsISO8601({ strict: true })
  to?: string;

  @ApiPropertyOptional({ type: 'integer', default: 0, minimum: 0 })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(0)
  skip: number = 0;

  @ApiPropertyOptional({ type: 'integer', default: 100, minimum: 1, maximum: 1000 })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(1000)
  limit: number = 100;
}
