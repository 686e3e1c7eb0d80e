import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional } from 'class-validator';
import { LimitField } from '../../../common/validation/query-fields';
import { RELATED_BY, RelatedBy } from '../graph.types';

export class RelatedCompaniesQuery {
  @ApiPropertyOptional({
    enum: RELATED_BY,
    default: 'industry',
    description:
      '`industry`: the same GICS sub-industry (weight 1), then the same sector (0.5); `correlation`: daily returns ' +
      'correlated at 0.6 or more over the last 252 sessions (weight: the correlation); `news`: mentioned in the same ' +
      'news items in the last 7 days (weight: the share of its items)',
  })
  @IsOptional()
  @IsIn(RELATED_BY)
  by: RelatedBy = 'industry';

  @LimitField({ default: 10, max: 50, documentAsInteger: true })
  limit: number = 10;
}
