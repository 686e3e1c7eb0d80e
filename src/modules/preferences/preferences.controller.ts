import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Put } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiBody,
  ApiConflictResponse,
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiTags,
  ApiUnprocessableEntityResponse,
} from '@nestjs/swagger';
import { AuthUser } from '../../common/auth/auth-user';
import { CurrentUser } from '../../common/auth/current-user.decorator';
import { ErrorDetail } from '../../common/errors/error-details';
import { CreatePreferencesDto } from './dto/create-preferences.dto';
import { PreferenceChoicesResponse } from './dto/preference-choices.response';
import { PreferenceDefaultsResponse } from './dto/preference-defaults.response';
import { PreferencesResponse } from './dto/preferences.response';
import { UpdatePreferencesDto } from './dto/update-preferences.dto';
import { WizardRequestDto } from './dto/wizard-request.dto';
import { PreferencesService } from './preferences.service';
import { EXPERIENCE_LEVELS, TICKER_PATTERN, WATCHLIST_MAX_SYMBOLS } from './preference-values';
import { JsonArrayBodyPipe } from './validation/json-array-body.pipe';
import { UniqueInformationSourcesPipe } from './validation/unique-information-sources.pipe';
import { WizardRequestPipe } from './validation/wizard-request.pipe';
import { WizardRequest } from './wizard-steps';

const levelParam = ApiParam({ name: 'experience_level', enum: EXPERIENCE_LEVELS });
const invalidLevel = ApiBadRequestResponse({ description: `\`${ErrorDetail.invalidExperienceLevel}\`` });

@ApiTags('preferences')
@Controller('preferences')
export class PreferencesController {
  constructor(private readonly preferences: PreferencesService) {}

  @Get()
  @ApiOperation({ summary: "The caller's preferences" })
  @ApiOkResponse({ type: PreferencesResponse })
  @ApiNotFoundResponse({ description: `\`${ErrorDetail.preferencesNotFound}\`` })
  async get(@CurrentUser() user: AuthUser): Promise<PreferencesResponse> {
    return PreferencesResponse.from(await this.preferences.get(user.id));
  }

  @Post()
  @ApiOperation({ summary: 'Create preferences; absent fields take the defaults of experience_level' })
  @ApiCreatedResponse({ type: PreferencesResponse })
  @ApiConflictResponse({ description: `\`${ErrorDetail.preferencesAlreadyExist}\`` })
  @ApiUnprocessableEntityResponse({ description: 'Validation failed' })
  async create(
    @CurrentUser() user: AuthUser,
    @Body(UniqueInformationSourcesPipe) body: CreatePreferencesDto,
  ): Promise<PreferencesResponse> {
    return PreferencesResponse.from(await this.preferences.create(user.id, body));
  }

  @Put()
  @ApiOperation({ summary: 'Change any subset of the fields; the others keep their values' })
  @ApiOkResponse({ type: PreferencesResponse })
  @ApiNotFoundResponse({ description: `\`${ErrorDetail.preferencesNotFoundToUpdate}\`` })
  @ApiUnprocessableEntityResponse({ description: 'Validation failed' })
  async update(
    @CurrentUser() user: AuthUser,
    @Body(UniqueInformationSourcesPipe) body: UpdatePreferencesDto,
  ): Promise<PreferencesResponse> {
    return PreferencesResponse.from(await this.preferences.update(user.id, body));
  }

  @Delete()
  @HttpCode(204)
  @ApiOperation({ summary: 'Delete the preferences (also succeeds when there are none)' })
  @ApiNoContentResponse()
  remove(@CurrentUser() user: AuthUser): Promise<void> {
    return this.preferences.remove(user.id);
  }

  @Get('defaults/:experience_level')
  @ApiOperation({ summary: 'The default preference fields of an experience level' })
  @levelParam
  @ApiOkResponse({ type: PreferenceDefaultsResponse })
  @invalidLevel
  defaults(@Param('experience_level') level: string): PreferenceDefaultsResponse {
    return this.preferences.defaults(level);
  }

  @Get('choices')
  @ApiOperation({ summary: 'The allowed values of every enumerated field' })
  @ApiOkResponse({ type: PreferenceChoicesResponse })
  choices(): PreferenceChoicesResponse {
    return this.preferences.choices();
  }

  @Post('wizard')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Apply onboarding wizard steps',
    description:
      'Creates the record from the defaults of step_data.essential.experience_level (beginner when absent) ' +
      'if there is none. An unknown step, or a field sent in a step it does not belong to, is a 422.',
  })
  @ApiBody({ type: WizardRequestDto })
  @ApiOkResponse({ type: PreferencesResponse })
  @ApiUnprocessableEntityResponse({ description: 'Validation failed' })
  async wizard(
    @CurrentUser() user: AuthUser,
    @Body(WizardRequestPipe) body: WizardRequest,
  ): Promise<PreferencesResponse> {
    return PreferencesResponse.from(
      await this.preferences.runWizard(user.id, body.step_data, body.complete === true),
    );
  }

  @Get('or-create/:experience_level')
  @ApiOperation({ summary: 'The existing preferences, or new ones from the level defaults' })
  @levelParam
  @ApiOkResponse({ type: PreferencesResponse })
  @invalidLevel
  async getOrCreate(
    @CurrentUser() user: AuthUser,
    @Param('experience_level') level: string,
  ): Promise<PreferencesResponse> {
    return PreferencesResponse.from(await this.preferences.getOrCreate(user.id, level));
  }

  @Patch('watchlist')
  @ApiOperation({ summary: 'Replace the watchlist; the body is the JSON array of symbols itself' })
  @ApiBody({
    schema: {
      type: 'array',
      items: { type: 'string', pattern: TICKER_PATTERN.source },
      maxItems: WATCHLIST_MAX_SYMBOLS,
      example: ['aapl', 'MSFT'],
    },
  })
  @ApiOkResponse({ type: PreferencesResponse })
  @ApiBadRequestResponse({
    description: `\`${ErrorDetail.watchlistTooLong}\`, \`Invalid ticker symbols: <values as sent>\` or \`Duplicate ticker symbols: <symbols>\``,
  })
  @ApiNotFoundResponse({ description: `\`${ErrorDetail.preferencesNotFound}\`` })
  @ApiUnprocessableEntityResponse({ description: 'The body is not a JSON array' })
  async replaceWatchlist(
    @CurrentUser() user: AuthUser,
    @Body(JsonArrayBodyPipe) symbols: unknown[],
  ): Promise<PreferencesResponse> {
    return PreferencesResponse.from(await this.preferences.replaceWatchlist(user.id, symbols));
  }
}
