import { ApiProperty } from '@nestjs/swagger';
import { RELATED_BY, RelatedBy, RelatedCompanies, RelatedCompany } from '../graph.types';

const round4 = (value: number) => Math.round(value * 10_000) / 10_000;

export class RelatedCompanyResponse {
  @ApiProperty({ example: 'AMD' })
  symbol: string;

  @ApiProperty({ example: 'Advanced Micro Devices Inc' })
  name: string;

  @ApiProperty({ example: 1, description: 'How strongly related, 0..1 (4 decimals)' })
  weight: number;

  @ApiProperty({ example: 'same sub-industry: Semiconductors', description: 'The relation in words' })
  why: string;

  @ApiProperty({
    type: [String],
    example: ['NVDA', 'Semiconductors', 'AMD'],
    description: 'The path through the graph, from the asked company to this one',
  })
  path: string[];

  static from(company: RelatedCompany): RelatedCompanyResponse {
    return { ...company, weight: round4(company.weight), path: [...company.path] };
  }
}

export class RelatedCompaniesResponse {
  @ApiProperty({ example: 'NVDA' })
  symbol: string;

  @ApiProperty({ enum: RELATED_BY, example: 'industry' })
  by: RelatedBy;

  @ApiProperty({ type: [RelatedCompanyResponse] })
  related: RelatedCompanyResponse[];

  static from(related: RelatedCompanies): RelatedCompaniesResponse {
    return {
      symbol: related.symbol,
      by: related.by,
      related: related.related.map(RelatedCompanyResponse.from),
    };
  }
}
