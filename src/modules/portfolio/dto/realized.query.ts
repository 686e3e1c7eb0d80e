import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, Max, Min } from 'class-validator';
import { AccountIdField, ACCOUNT_SCOPE_DESCRIPTION } from './account-id.field';

export class RealizedQuery {
  @AccountIdField(ACCOUNT_SCOPE_DESCRIPTION)
  account_id?: number;

  @ApiPropertyOptional({
    type: 'integer',
    minimum: 1900,
    maximum: 2200,
    example: 2025,
    description: "Calendar year of the sells (New York dates); default New York's current year",
  })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1900)
  @Max(2200)
  year?: number;
}
