import { applyDecorators } from '@nestjs/common';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, Max, Min } from 'class-validator';

/** PostgreSQL integer range, so an absurd id is a 422 and never a database error. */
export const MAX_ACCOUNT_ID = 2_147_483_647;

/** An optional account id (query or body): the one account a request is about. */
export const AccountIdField = (description: string) =>
  applyDecorators(
    ApiPropertyOptional({ type: 'integer', minimum: 1, description }),
    Type(() => Number),
    IsOptional(),
    IsInt(),
    Min(1),
    Max(MAX_ACCOUNT_ID),
  );

/** What a read answers for: one account, or every account combined when none is named. */
export const ACCOUNT_SCOPE_DESCRIPTION =
  'One of your accounts (see /portfolio/accounts): answer for it alone. Without it, every account combined.';

export class AccountScopeQuery {
  @AccountIdField(ACCOUNT_SCOPE_DESCRIPTION)
  account_id?: number;
}

export class ImportTargetQuery {
  @AccountIdField(
    'The account the rows are recorded in (404 `Account not found` when it is not yours); the default account when left out',
  )
  account_id?: number;
}
