import { BooleanQueryField } from '../../../common/validation/query-fields';
import { AccountIdField, ACCOUNT_SCOPE_DESCRIPTION } from './account-id.field';

export class IncludeCashQuery {
  @AccountIdField(ACCOUNT_SCOPE_DESCRIPTION)
  account_id?: number;

  @BooleanQueryField({
    description:
      'Also answer the cash balance (deposits, withdrawals, sell proceeds, buys, dividends, interest and fees) ' +
      'and the total value including it. Off by default, so the figures without it stay as they were.',
  })
  include_cash: boolean = false;
}
