import {
  Body,
  Controller,
  Delete,
  Get,
  HttpCode,
  HttpStatus,
  Param,
  Patch,
  Post,
  Query,
} from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiConflictResponse,
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
  ApiUnprocessableEntityResponse,
} from '@nestjs/swagger';
import { AuthUser } from '../../common/auth/auth-user';
import { CurrentUser } from '../../common/auth/current-user.decorator';
import { ErrorDetail } from '../../common/errors/error-details';
import {
  AccountIdParams,
  AccountListResponse,
  AccountResponse,
  CreateAccountDto,
  DeleteAccountQuery,
  UpdateAccountDto,
} from './dto/account.dto';
import { AccountWithCount, PortfolioAccountsService } from './portfolio-accounts.service';

const present = ({ account, transactionCount }: AccountWithCount) =>
  AccountResponse.from(account, transactionCount);

@ApiTags('portfolio')
@Controller('portfolio/accounts')
export class PortfolioAccountsController {
  constructor(private readonly accounts: PortfolioAccountsService) {}

  @Get()
  @ApiOperation({
    summary: "The caller's accounts, the default first",
    description:
      'Every user has a default account (made on first use): writes that name no account go there.',
  })
  @ApiOkResponse({ type: AccountListResponse })
  async list(@CurrentUser() user: AuthUser): Promise<AccountListResponse> {
    return { accounts: (await this.accounts.list(user.id)).map(present) };
  }

  @Post()
  @ApiOperation({ summary: 'Open an account: name, kind, brokerage?, opened_on?' })
  @ApiCreatedResponse({ type: AccountResponse })
  @ApiConflictResponse({ description: '`An account named <name> already exists`' })
  @ApiUnprocessableEntityResponse({ description: 'Validation failed' })
  async create(@CurrentUser() user: AuthUser, @Body() body: CreateAccountDto): Promise<AccountResponse> {
    return present(
      await this.accounts.create(user.id, {
        name: body.name,
        kind: body.kind,
        brokerage: body.brokerage ?? null,
        openedOn: body.opened_on ?? null,
      }),
    );
  }

  @Get(':id')
  @ApiOperation({ summary: 'One account' })
  @ApiOkResponse({ type: AccountResponse })
  @ApiNotFoundResponse({ description: `\`${ErrorDetail.accountNotFound}\`` })
  async get(@CurrentUser() user: AuthUser, @Param() params: AccountIdParams): Promise<AccountResponse> {
    return present(await this.accounts.get(user.id, params.id));
  }

  @Patch(':id')
  @ApiOperation({
    summary: 'Rename an account, change its kind, brokerage or opening date, or make it the default',
  })
  @ApiOkResponse({ type: AccountResponse })
  @ApiNotFoundResponse({ description: `\`${ErrorDetail.accountNotFound}\`` })
  @ApiConflictResponse({ description: '`An account named <name> already exists`' })
  @ApiUnprocessableEntityResponse({ description: 'Validation failed' })
  async update(
    @CurrentUser() user: AuthUser,
    @Param() params: AccountIdParams,
    @Body() body: UpdateAccountDto,
  ): Promise<AccountResponse> {
    return present(
      await this.accounts.update(
        user.id,
        params.id,
        { name: body.name, kind: body.kind, brokerage: body.brokerage, openedOn: body.opened_on },
        body.is_default === true,
      ),
    );
  }

  @Delete(':id')
  @HttpCode(HttpStatus.NO_CONTENT)
  @ApiOperation({
    summary: 'Delete an account',
    description:
      'An account with transactions is deleted only with `move_to` naming another account, into which they ' +
      'move (lots, cost basis and cash merge; realized P&L is re-derived). The default account cannot be deleted.',
  })
  @ApiNoContentResponse()
  @ApiNotFoundResponse({ description: `\`${ErrorDetail.accountNotFound}\` (the account or move_to)` })
  @ApiConflictResponse({
    description: 'The default account; an account with transactions and no move_to; move_to naming itself',
  })
  @ApiBadRequestResponse({
    description: 'The merged account would break a ledger rule (a split, strict cash)',
  })
  remove(
    @CurrentUser() user: AuthUser,
    @Param() params: AccountIdParams,
    @Query() query: DeleteAccountQuery,
  ): Promise<void> {
    return this.accounts.remove(user.id, params.id, query.move_to);
  }
}
