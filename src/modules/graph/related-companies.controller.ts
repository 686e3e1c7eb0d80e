import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { AuthUser } from '../../common/auth/auth-user';
import { CurrentUser } from '../../common/auth/current-user.decorator';
import { RelatedCompaniesQuery } from './dto/related.query';
import { RelatedCompaniesResponse } from './dto/related.response';
import { GraphService } from './graph.service';

@ApiTags('market')
@Controller('market')
export class RelatedCompaniesController {
  constructor(private readonly graph: GraphService) {}

  @Get('stock/:symbol/related')
  @ApiOperation({
    summary: 'Companies related to one, from the market graph, strongest first',
    description:
      'Each with why (the path in words) and a weight. `by=industry`: the same GICS sub-industry, then the same ' +
      'sector; `by=correlation`: daily returns correlated at 0.6 or more over the last 252 sessions; `by=news`: ' +
      'mentioned in the same news items in the last 7 days.',
  })
  @ApiOkResponse({
    type: RelatedCompaniesResponse,
    content: {
      'application/json': {
        schema: { $ref: '#/components/schemas/RelatedCompaniesResponse' },
        examples: {
          industry: {
            summary: 'by=industry',
            value: {
              symbol: 'NVDA',
              by: 'industry',
              related: [
                {
                  symbol: 'AMD',
                  name: 'Advanced Micro Devices Inc',
                  weight: 1,
                  why: 'same sub-industry: Semiconductors',
                  path: ['NVDA', 'Semiconductors', 'AMD'],
                },
              ],
            },
          },
          correlation: {
            summary: 'by=correlation',
            value: {
              symbol: 'XOM',
              by: 'correlation',
              related: [
                {
                  symbol: 'CVX',
                  name: 'Chevron Corp.',
                  weight: 0.8213,
                  why: 'correlation 0.82 over 252 sessions',
                  path: ['XOM', 'CVX'],
                },
              ],
            },
          },
          news: {
            summary: 'by=news',
            value: {
              symbol: 'AAPL',
              by: 'news',
              related: [
                {
                  symbol: 'MSFT',
                  name: 'Microsoft Corp.',
                  weight: 0.5,
                  why: 'mentioned together in 4 items this week',
                  path: ['AAPL', 'news', 'MSFT'],
                },
              ],
            },
          },
        },
      },
    },
  })
  @ApiNotFoundResponse({ description: '`Stock <symbol> not found`' })
  async related(
    @CurrentUser() user: AuthUser,
    @Param('symbol') symbol: string,
    @Query() query: RelatedCompaniesQuery,
  ): Promise<RelatedCompaniesResponse> {
    return RelatedCompaniesResponse.from(await this.graph.related(symbol, query.by, query.limit, user.id));
  }
}
