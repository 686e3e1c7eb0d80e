import { Body, Controller, Post } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiBody,
  ApiCreatedResponse,
  ApiNotFoundResponse,
  ApiOperation,
  ApiTags,
  ApiUnprocessableEntityResponse,
} from '@nestjs/swagger';
import { AuthUser } from '../../common/auth/auth-user';
import { CurrentUser } from '../../common/auth/current-user.decorator';
import { Idempotent } from '../idempotency';
import { CreateTransferDto, TransferResponse } from './dto/transfer.dto';
import { TransactionsService } from './transactions.service';

@ApiTags('portfolio')
@Controller('portfolio/transfers')
export class TransfersController {
  constructor(private readonly transactions: TransactionsService) {}

  @Post()
  @ApiOperation({
    summary: 'Move cash or shares between two of your accounts, as one pair',
    description:
      'Records a transfer_out in from_account_id and, in to_account_id, a transfer_in of the cash or one per lot ' +
      'the shares leave (oldest first), each with its acquisition date and cost basis, so holding periods go on and ' +
      'nothing is realized. Both legs are recorded together or not at all, and deleting either deletes both. ' +
      'See docs/portfolio.md#transfers.',
  })
  @ApiBody({
    type: CreateTransferDto,
    examples: {
      shares: {
        value: {
          from_account_id: 1,
          to_account_id: 2,
          symbol: 'AAPL',
          quantity: 5,
          executed_at: '2025-06-02T15:30:00Z',
        },
      },
      cash: {
        value: { from_account_id: 1, to_account_id: 2, amount: 2500, executed_at: '2025-06-02T15:30:00Z' },
      },
    },
  })
  @Idempotent()
  @ApiCreatedResponse({ type: TransferResponse })
  @ApiNotFoundResponse({ description: '`Account not found`; `Stock <symbol> not found`' })
  @ApiBadRequestResponse({
    description: '`Insufficient quantity of <symbol> to sell` (the sending account holds fewer); strict cash',
  })
  @ApiUnprocessableEntityResponse({
    description: 'Validation failed; the same account twice; shares without quantity',
  })
  async transfer(@CurrentUser() user: AuthUser, @Body() body: CreateTransferDto): Promise<TransferResponse> {
    return TransferResponse.from(await this.transactions.transfer(user.id, body));
  }
}
