import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsUUID } from 'class-validator';
import { BooleanQueryField } from '../../../common/validation/query-fields';
import { BROKER_FORMATS, BrokerFormat } from '../broker-import/broker-export';
import { ImportTargetQuery } from './account-id.field';

export const IMPORT_FORMATS = ['auto', ...BROKER_FORMATS] as const;

export class BrokerImportQuery extends ImportTargetQuery {
  @ApiPropertyOptional({
    enum: IMPORT_FORMATS,
    default: 'auto',
    description:
      'The brokerage whose export the file is; `auto` detects it from the header, preamble or sections',
  })
  @IsOptional()
  @IsIn(IMPORT_FORMATS)
  format: BrokerFormat | 'auto' = 'auto';

  @BooleanQueryField({
    description:
      'Answer what would be recorded, with a `preview_token` that records exactly that (valid for an hour), and record nothing',
  })
  dry_run: boolean = false;

  @ApiPropertyOptional({
    format: 'uuid',
    description: "Commit a dry run's preview: records exactly what it showed (no file needed)",
  })
  @IsOptional()
  @IsUUID()
  preview_token?: string;
}
