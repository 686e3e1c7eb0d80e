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
  ApiBody,
  ApiConflictResponse,
  ApiConsumes,
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
import { Idempotent } from '../idempotency';
import { ImportTargetQuery } from './dto/account-id.field';
import { CreateTransactionDto, UpdateTransactionDto } from './dto/create-transaction.dto';
import { ListTransactionsQuery } from './dto/list-transactions.query';
import { TransactionIdParams } from './dto/transaction-id.params';
import {
  TransactionHistoryResponse,
  TransactionImportResponse,
  TransactionListResponse,
  TransactionResponse,
} from './dto/transaction.response';
import { CSV_HEADER, TYPED_CSV_HEADER } from './import/transactions-csv.parser';
import { CsvBodyPipe } from './import/csv-body.pipe';
import { TransactionsService } from './transactions.service';

@ApiTags('portfolio')
@Controller('portfolio/transactions')
export class TransactionsController {
  constructor(private readonly transactions: TransactionsService) {}

  @Post()
  @ApiOperation({
    summary: 'Record a buy, sell, dividend, split, deposit, withdrawal, fee or interest',
    description:
      '`side` names the kind. buy/sell: symbol, quantity, price, fees?. dividend: symbol, amount (gross), ' +
      'withholding_tax?. split: symbol, ratio ("4:1", "1:10"). deposit, withdrawal, interest: amount. fee: amount, ' +
      'symbol? (a fee charged on that position). Any other field is refused at its `loc`. A dividend or a ' +
      'position fee needs a position in its symbol opened before it; a split, one held at its time. ' +
      'executed_at: from 1970-01-01, not in the future. See docs/portfolio.md. ' +
      'A sell may name the lots it closes (`lots`, by the ids of their buys), honoured under the `specific` ' +
      "cost-basis method. realized_pnl is by the user's cost-basis method.",
  })
  @ApiBody({
    type: CreateTransactionDto,
    examples: {
      buy: {
        value: {
          symbol: 'AAPL',
          side: 'buy',
          quantity: 10,
          price: 172.5,
          executed_at: '2025-06-02T15:30:00Z',
        },
      },
      specificSell: {
        value: {
          symbol: 'AAPL',
          side: 'sell',
          quantity: 5,
          price: 190,
          executed_at: '2025-07-01T15:30:00Z',
          lots: [{ lot_id: 12, quantity: 5 }],
        },
      },
      dividend: {
        value: {
          symbol: 'AAPL',
          side: 'dividend',
          amount: 24.5,
          withholding_tax: 3.68,
          executed_at: '2025-08-14T13:30:00Z',
        },
      },
      split: { value: { symbol: 'AAPL', side: 'split', ratio: '4:1', executed_at: '2025-09-02T13:30:00Z' } },
      deposit: { value: { side: 'deposit', amount: 10000, executed_at: '2025-06-02T13:30:00Z' } },
      fee: {
        value: {
          symbol: 'AAPL',
          side: 'fee',
          amount: 3,
          executed_at: '2025-09-30T20:00:00Z',
          note: 'ADR fee',
        },
      },
    },
  })
  @Idempotent()
  @ApiCreatedResponse({ type: TransactionResponse })
  @ApiNotFoundResponse({ description: '`Stock <symbol> not found`' })
  @ApiBadRequestResponse({
    description:
      '`Insufficient quantity of <symbol> to sell`; `No position in <symbol> was held before this dividend` ' +
      '(or `this fee`, for a fee on a position); `No position in <symbol> is held at the time of this split`; ' +
      '`This split would leave less than 0.00000001 shares of <symbol>, the smallest quantity the ledger holds`; ' +
      'the ledger would exceed PORTFOLIO_MAX_TRANSACTIONS',
  })
  @ApiConflictResponse({
    description: 'A stored sell names a lot this trade would leave without the shares it closes',
  })
  @ApiUnprocessableEntityResponse({
    description:
      'Validation failed (including executed_at in the future; a field the kind does not take, a withholding tax ' +
      'above the amount, a ratio that is not a split; lots on a buy, named twice, not adding up to the ' +
      "quantity, or not open enough at the sell's time); an invalid or reused Idempotency-Key",
  })
  async record(
    @CurrentUser() user: AuthUser,
    @Body() body: CreateTransactionDto,
  ): Promise<TransactionResponse> {
    return TransactionResponse.from(await this.transactions.record(user.id, body));
  }

  @Get()
  @ApiOperation({ summary: "The caller's transactions, newest first" })
  @ApiOkResponse({ type: TransactionListResponse })
  async list(
    @CurrentUser() user: AuthUser,
    @Query() query: ListTransactionsQuery,
  ): Promise<TransactionListResponse> {
    return TransactionListResponse.from(await this.transactions.list(user.id, query));
  }

  @Post('import')
  @ApiOperation({
    summary: 'Import trades from CSV, all or nothing',
    description:
      `Body: text/csv with the header \`${CSV_HEADER}\` (fees and an extra note column optional; date as ` +
      `YYYY-MM-DD or an ISO date-time), or, for every kind of transaction, with a type column: \`${TYPED_CSV_HEADER}\` ` +
      '(columns a file does not use may be left out; an empty type falls back to a side column). ' +
      'Every row is recorded in one database transaction, or none is and a 422 ' +
      'lists every bad cell as `loc: ["body", <row>, <column>]`, row 0 being the first line after the header.',
  })
  @ApiConsumes('text/csv')
  @ApiBody({
    schema: {
      type: 'string',
      example:
        `${TYPED_CSV_HEADER}\n2025-01-02,deposit,,,,,10000,,\n2025-01-06,buy,AAPL,10,150.25,1,,,\n` +
        '2025-02-14,dividend,AAPL,,,,2.5,0.38,\n2025-03-03,split,AAPL,,,,,,4:1\n',
    },
  })
  @Idempotent()
  @ApiCreatedResponse({ type: TransactionImportResponse })
  @ApiBadRequestResponse({ description: 'The ledger would exceed PORTFOLIO_MAX_TRANSACTIONS' })
  @ApiConflictResponse({
    description: 'A stored sell names a lot the rows would leave without the shares it closes',
  })
  @ApiUnprocessableEntityResponse({
    description: 'Bad rows, each listed; an invalid or reused Idempotency-Key',
  })
  async importCsv(
    @CurrentUser() user: AuthUser,
    @Body(CsvBodyPipe) csv: string,
    @Query() query: ImportTargetQuery,
  ): Promise<TransactionImportResponse> {
    return TransactionImportResponse.from(await this.transactions.importCsv(user.id, csv, query.account_id));
  }

  @Patch(':id')
  @ApiOperation({
    summary: 'Edit a transaction of any kind',
    description:
      'Any field of a new entry, under the same validation, strict-cash and lot rules. Fields left out keep ' +
      'their value while the kind stays; a new `side` keeps only the symbol and takes that kind’s fields as given. Realized P&L of the ' +
      'sells after it is re-derived, as for a back-dated entry; the values replaced are kept (see ' +
      '`GET /portfolio/transactions/{id}/history`) and `updated_at` is set. A sell keeps the lots it names unless ' +
      '`lots` names others.',
  })
  @ApiBody({
    type: UpdateTransactionDto,
    examples: {
      price: { value: { price: 171.9, fees: 1 } },
      move: { value: { account_id: 2 } },
      kind: { value: { side: 'dividend', amount: 12.5, withholding_tax: 1.88 } },
    },
  })
  @Idempotent()
  @ApiOkResponse({ type: TransactionResponse })
  @ApiNotFoundResponse({
    description: `\`${ErrorDetail.transactionNotFound}\`, \`${ErrorDetail.accountNotFound}\`, \`Stock <symbol> not found\``,
  })
  @ApiBadRequestResponse({
    description: 'As for a new entry: an oversell, a position event without a position, strict cash',
  })
  @ApiConflictResponse({
    description: 'A stored sell names a lot the edit would leave without the shares it closes',
  })
  @ApiUnprocessableEntityResponse({
    description:
      'As for a new entry, and `Field required` for a field the new kind needs; an invalid or reused Idempotency-Key',
  })
  async edit(
    @CurrentUser() user: AuthUser,
    @Param() params: TransactionIdParams,
    @Body() body: UpdateTransactionDto,
  ): Promise<TransactionResponse> {
    return TransactionResponse.from(await this.transactions.edit(user.id, params.id, body));
  }

  @Get(':id/history')
  @ApiOperation({
    summary: 'The values each edit of a transaction replaced, oldest first',
    description: 'Empty for a transaction never edited.',
  })
  @ApiOkResponse({ type: TransactionHistoryResponse })
  @ApiNotFoundResponse({ description: `\`${ErrorDetail.transactionNotFound}\`` })
  async history(
    @CurrentUser() user: AuthUser,
    @Param() params: TransactionIdParams,
  ): Promise<TransactionHistoryResponse> {
    return TransactionHistoryResponse.from(await this.transactions.revisions(user.id, params.id));
  }

  @Delete(':id')
  @HttpCode(HttpStatus.NO_CONTENT)
  @ApiOperation({ summary: 'Delete a transaction' })
  @ApiNoContentResponse()
  @ApiNotFoundResponse({ description: `\`${ErrorDetail.transactionNotFound}\`` })
  @ApiBadRequestResponse({
    description:
      'A later sell would exceed the quantity held without it, a later dividend, split or position fee would have ' +
      'no position, or a later split would leave less than 0.00000001 shares',
  })
  @ApiConflictResponse({
    description: 'A sell names it as a lot, or names a lot that would not stay open for it without it',
  })
  remove(@CurrentUser() user: AuthUser, @Param() params: TransactionIdParams): Promise<void> {
    return this.transactions.remove(user.id, params.id);
  }
}
