import { Body, Controller, Delete, Get, HttpCode, HttpStatus, Param, Post, Query } from '@nestjs/common';
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
import { ApiIdempotencyKey, IdempotencyKey, IdempotentRequest } from '../idempotency';
import { CreateTransactionDto } from './dto/create-transaction.dto';
import { ListTransactionsQuery } from './dto/list-transactions.query';
import { TransactionIdParams } from './dto/transaction-id.params';
import {
  TransactionImportResponse,
  TransactionListResponse,
  TransactionResponse,
} from './dto/transaction.response';
import { CSV_HEADER } from './import/transactions-csv.parser';
import { CsvBodyPipe } from './import/csv-body.pipe';
import { TransactionsService } from './transactions.service';

@ApiTags('portfolio')
@Controller('portfolio/transactions')
export class TransactionsController {
  constructor(private readonly transactions: TransactionsService) {}

  @Post()
  @ApiOperation({
    summary: 'Record a buy or a sell',
    description:
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
    },
  })
  @ApiIdempotencyKey()
  @ApiCreatedResponse({ type: TransactionResponse })
  @ApiNotFoundResponse({ description: '`Stock <symbol> not found`' })
  @ApiBadRequestResponse({
    description:
      '`Insufficient quantity of <symbol> to sell`; the ledger would exceed PORTFOLIO_MAX_TRANSACTIONS',
  })
  @ApiConflictResponse({
    description: 'A stored sell names a lot this trade would leave without the shares it closes',
  })
  @ApiUnprocessableEntityResponse({
    description:
      'Validation failed (including executed_at in the future; lots on a buy, named twice, not adding up to the ' +
      "quantity, or not open enough at the sell's time); an invalid or reused Idempotency-Key",
  })
  record(
    @CurrentUser() user: AuthUser,
    @Body() body: CreateTransactionDto,
    @IdempotencyKey() request: IdempotentRequest | undefined,
  ): Promise<TransactionResponse> {
    return this.transactions.record(user.id, body, (recorded) => TransactionResponse.from(recorded), request);
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
      'YYYY-MM-DD or an ISO date-time). Every row is recorded in one database transaction, or none is and a 422 ' +
      'lists every bad cell as `loc: ["body", <row>, <column>]`, row 0 being the first line after the header.',
  })
  @ApiConsumes('text/csv')
  @ApiBody({ schema: { type: 'string', example: `${CSV_HEADER}\n2025-01-06,AAPL,buy,10,150.25,1\n` } })
  @ApiIdempotencyKey()
  @ApiCreatedResponse({ type: TransactionImportResponse })
  @ApiBadRequestResponse({ description: 'The ledger would exceed PORTFOLIO_MAX_TRANSACTIONS' })
  @ApiConflictResponse({
    description: 'A stored sell names a lot the rows would leave without the shares it closes',
  })
  @ApiUnprocessableEntityResponse({
    description: 'Bad rows, each listed; an invalid or reused Idempotency-Key',
  })
  importCsv(
    @CurrentUser() user: AuthUser,
    @Body(CsvBodyPipe) csv: string,
    @IdempotencyKey() request: IdempotentRequest | undefined,
  ): Promise<TransactionImportResponse> {
    return this.transactions.importCsv(
      user.id,
      csv,
      (recorded) => TransactionImportResponse.from(recorded),
      request,
    );
  }

  @Delete(':id')
  @HttpCode(HttpStatus.NO_CONTENT)
  @ApiOperation({ summary: 'Delete a transaction' })
  @ApiNoContentResponse()
  @ApiNotFoundResponse({ description: `\`${ErrorDetail.transactionNotFound}\`` })
  @ApiBadRequestResponse({ description: 'A later sell would exceed the quantity held without it' })
  @ApiConflictResponse({
    description: 'A sell names it as a lot, or names a lot that would not stay open for it without it',
  })
  remove(@CurrentUser() user: AuthUser, @Param() params: TransactionIdParams): Promise<void> {
    return this.transactions.remove(user.id, params.id);
  }
}
