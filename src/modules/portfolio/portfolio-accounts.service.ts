import { Injectable } from '@nestjs/common';
import { ConflictError, NotFoundError } from '../../common/errors/domain-errors';
import { ErrorDetail } from '../../common/errors/error-details';
import { LedgerService } from './ledger.service';
import {
  AccountFields,
  PortfolioAccount,
  PortfolioAccountsRepository,
} from './portfolio-accounts.repository';

/** An account with the number of transactions it holds. */
export interface AccountWithCount {
  account: PortfolioAccount;
  transactionCount: number;
}

/** A user's accounts: listing, creating, renaming, choosing the default and deleting. */
@Injectable()
export class PortfolioAccountsService {
  constructor(
    private readonly accounts: PortfolioAccountsRepository,
    private readonly ledger: LedgerService,
  ) {}

  async list(userId: number): Promise<AccountWithCount[]> {
    const [accounts, counts] = await Promise.all([
      this.accounts.list(userId),
      this.accounts.transactionCounts(userId),
    ]);
    return accounts.map((account) => ({ account, transactionCount: counts.get(account.id) ?? 0 }));
  }

  async get(userId: number, id: number): Promise<AccountWithCount> {
    const account = await this.accounts.find(userId, id);
    if (!account) throw new NotFoundError(ErrorDetail.accountNotFound);
    return { account, transactionCount: (await this.accounts.transactionCounts(userId)).get(id) ?? 0 };
  }

  /** 409 when the user already has an account of that name (any case). */
  async create(userId: number, fields: AccountFields): Promise<AccountWithCount> {
    const account = await this.accounts.create(userId, fields);
    if (!account) throw new ConflictError(ErrorDetail.accountNameTaken(fields.name));
    return { account, transactionCount: 0 };
  }

  /** 404 for another user's or an unknown id; 409 when another account has the new name. */
  async update(
    userId: number,
    id: number,
    changes: Partial<AccountFields>,
    makeDefault: boolean,
  ): Promise<AccountWithCount> {
    const updated = await this.accounts.update(userId, id, changes, makeDefault);
    if (updated === 'missing') throw new NotFoundError(ErrorDetail.accountNotFound);
    if (updated === 'name_taken') throw new ConflictError(ErrorDetail.accountNameTaken(changes.name!));
    return this.get(userId, updated.id);
  }

  /** See LedgerChange.deleteAccount: under the ledger lock, as the move rewrites the ledger. */
  remove(userId: number, id: number, moveTo: number | undefined): Promise<void> {
    return this.ledger.change(userId, (ledger) => ledger.deleteAccount(id, moveTo));
  }

  /** 404 unless the account is the user's; undefined (every account) passes. */
  async requireAccount(userId: number, accountId: number | undefined): Promise<void> {
    if (accountId === undefined) return;
    if (!(await this.accounts.find(userId, accountId))) throw new NotFoundError(ErrorDetail.accountNotFound);
  }
}
