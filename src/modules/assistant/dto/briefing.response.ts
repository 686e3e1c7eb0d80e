import { ApiProperty } from '@nestjs/swagger';
import { DAILY_SUMMARY_TIMES } from '../../preferences';

export const BRIEFING_SECTION_KINDS = [
  'portfolio',
  'watchlist',
  'news',
  'sectors',
  'risk',
  'rebalance',
] as const;
export type BriefingSectionKind = (typeof BRIEFING_SECTION_KINDS)[number];

export class BriefingSectionResponse {
  @ApiProperty({ enum: BRIEFING_SECTION_KINDS })
  kind: BriefingSectionKind;

  @ApiProperty()
  title: string;

  @ApiProperty({ description: 'Worded after explanation_style, analysis_depth and experience_level' })
  text: string;

  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    description: 'The figures the text was written from (percentages in percent, amounts in USD)',
  })
  data: Record<string, unknown>;
}

export class BriefingResponse {
  @ApiProperty({ type: String, format: 'date-time' })
  as_of: string;

  @ApiProperty({
    enum: DAILY_SUMMARY_TIMES,
    description: 'The daily_summary_time preference it is meant for',
  })
  for: string;

  @ApiProperty()
  headline: string;

  @ApiProperty({
    type: [BriefingSectionResponse],
    description: 'In the order of your information_sources priorities',
  })
  sections: BriefingSectionResponse[];

  @ApiProperty({ example: 'This is information, not investment advice.' })
  disclaimer: string;
}
