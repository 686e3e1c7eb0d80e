import { Body, Controller, Get, Put } from '@nestjs/common';
import {
  ApiBody,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
  ApiUnprocessableEntityResponse,
} from '@nestjs/swagger';
import { AuthUser } from '../../common/auth/auth-user';
import { CurrentUser } from '../../common/auth/current-user.decorator';
import { PortfolioSettingsResponse } from './dto/portfolio-settings.response';
import { UpdatePortfolioSettingsDto } from './dto/update-portfolio-settings.dto';
import { PortfolioSettingsService } from './portfolio-settings.service';

@ApiTags('portfolio')
@Controller('portfolio/settings')
export class PortfolioSettingsController {
  constructor(private readonly settings: PortfolioSettingsService) {}

  @Get()
  @ApiOperation({
    summary: "The caller's portfolio settings",
    description: 'A user who never changed them gets the defaults: average cost, strict_cash false.',
  })
  @ApiOkResponse({ type: PortfolioSettingsResponse })
  async get(@CurrentUser() user: AuthUser): Promise<PortfolioSettingsResponse> {
    return PortfolioSettingsResponse.from(await this.settings.settings(user.id));
  }

  @Put()
  @ApiOperation({
    summary: 'Change any subset of the settings; the others keep their values',
    description:
      'The cost-basis method may change at any time: every cost figure is computed from the ledger by the ' +
      'current method when it is read, so nothing stored is rewritten and switching back restores the old figures.',
  })
  @ApiBody({
    type: UpdatePortfolioSettingsDto,
    examples: {
      specific: { value: { cost_basis_method: 'specific' } },
      both: { value: { cost_basis_method: 'fifo', strict_cash: true } },
    },
  })
  @ApiOkResponse({ type: PortfolioSettingsResponse })
  @ApiUnprocessableEntityResponse({
    description: 'An unknown method, a non-boolean strict_cash, or a field sent as null',
  })
  async update(
    @CurrentUser() user: AuthUser,
    @Body() body: UpdatePortfolioSettingsDto,
  ): Promise<PortfolioSettingsResponse> {
    return PortfolioSettingsResponse.from(
      await this.settings.update(user.id, {
        costBasisMethod: body.cost_basis_method,
        strictCash: body.strict_cash,
      }),
    );
  }
}
