import { ApiProperty } from '@nestjs/swagger';
import { DAILY_SUMMARY_TIMES } from '../../preferences';
import { Briefing, BRIEFING_SECTION_KINDS, BriefingSectionKind } from '../briefing/briefing';

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

  static from(briefing: Briefing): BriefingResponse {
    return {
      as_of: briefing.asOf.toISOString(),
      for: briefing.summaryTime,
      headline: briefing.headline,
      sections: briefing.sections.map(({ kind, title, text, data }) => ({ kind, title, text, data })),
      disclaimer: briefing.disclaimer,
    };
  }
}
