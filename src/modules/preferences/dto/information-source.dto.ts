import { ApiProperty } from '@nestjs/swagger';
import { IsIn, IsInt, Max, Min } from 'class-validator';
import {
  INFORMATION_SOURCE_PRIORITY,
  INFORMATION_SOURCE_TYPES,
  InformationSourceType,
} from '../preference-values';

export class InformationSourceDto {
  @ApiProperty({ enum: INFORMATION_SOURCE_TYPES, enumName: 'InformationSourceType' })
  @IsIn(INFORMATION_SOURCE_TYPES)
  type: InformationSourceType;

  @ApiProperty({
    type: 'integer',
    minimum: INFORMATION_SOURCE_PRIORITY.min,
    maximum: INFORMATION_SOURCE_PRIORITY.max,
    description: '1 is the highest priority; unique within the list',
  })
  @IsInt()
  @Min(INFORMATION_SOURCE_PRIORITY.min)
  @Max(INFORMATION_SOURCE_PRIORITY.max)
  priority: number;
}
