import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform, Type } from 'class-transformer';
import {
  Equals,
  IsIn,
  IsInt,
  IsISO8601,
  IsOptional,
  IsString,
  Length,
  Max,
  Min,
  ValidateIf,
} from 'class-validator';
import { BROKERAGE_PLATFORMS, BrokeragePlatform } from '../../preferences';
import { ACCOUNT_KINDS, AccountKind, PortfolioAccount } from '../portfolio-accounts.repository';
import { MAX_ACCOUNT_ID } from './account-id.field';

const trimmed = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value);

export class CreateAccountDto {
  @ApiProperty({
    example: 'Fidelity Roth IRA',
    minLength: 1,
    maxLength: 100,
    description: 'Unique per user, any case',
  })
  @Transform(trimmed)
  @IsString()
  @Length(1, 100)
  name: string;

  @ApiProperty({ enum: ACCOUNT_KINDS, enumName: 'AccountKind' })
  @IsIn(ACCOUNT_KINDS)
  kind: AccountKind;

  @ApiPropertyOptional({
    enum: BROKERAGE_PLATFORMS,
    enumName: 'BrokeragePlatform',
    nullable: true,
    description: "One of the preferences' brokerage platforms",
  })
  @ValidateIf((_body, value) => value !== null && value !== undefined)
  @IsIn(BROKERAGE_PLATFORMS)
  brokerage?: BrokeragePlatform | null;

  @ApiPropertyOptional({ type: String, format: 'date', nullable: true, example: '2019-03-01' })
  @ValidateIf((_body, value) => value !== null && value !== undefined)
  @IsISO8601({ strict: true })
  @Length(10, 10, { message: 'opened_on must be a date (YYYY-MM-DD)' })
  opened_on?: string | null;
}

export class UpdateAccountDto {
  @ApiPropertyOptional({ minLength: 1, maxLength: 100 })
  @IsOptional()
  @Transform(trimmed)
  @IsString()
  @Length(1, 100)
  name?: string;

  @ApiPropertyOptional({ enum: ACCOUNT_KINDS, enumName: 'AccountKind' })
  @IsOptional()
  @IsIn(ACCOUNT_KINDS)
  kind?: AccountKind;

  @ApiPropertyOptional({ enum: BROKERAGE_PLATFORMS, enumName: 'BrokeragePlatform', nullable: true })
  @ValidateIf((_body, value) => value !== null && value !== undefined)
  @IsIn(BROKERAGE_PLATFORMS)
  brokerage?: BrokeragePlatform | null;

  @ApiPropertyOptional({ format: 'date', nullable: true })
  @ValidateIf((_body, value) => value !== null && value !== undefined)
  @IsISO8601({ strict: true })
  @Length(10, 10, { message: 'opened_on must be a date (YYYY-MM-DD)' })
  opened_on?: string | null;

  @ApiPropertyOptional({
    enum: [true],
    description: 'Make this the default account (the one writes go to when they name none)',
  })
  @IsOptional()
  @Equals(true)
  is_default?: true;
}

export class AccountIdParams {
  @ApiProperty({ type: 'integer', minimum: 1 })
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(MAX_ACCOUNT_ID)
  id: number;
}

export class DeleteAccountQuery {
  @ApiPropertyOptional({
    type: 'integer',
    minimum: 1,
    description: 'Another of your accounts to move this one’s transactions into before deleting it',
  })
  @Type(() => Number)
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(MAX_ACCOUNT_ID)
  move_to?: number;
}

export class AccountResponse {
  @ApiProperty({ type: 'integer' }) id: number;
  @ApiProperty() name: string;
  @ApiProperty({ enum: ACCOUNT_KINDS, enumName: 'AccountKind' }) kind: AccountKind;
  @ApiProperty({ enum: BROKERAGE_PLATFORMS, enumName: 'BrokeragePlatform', nullable: true })
  brokerage: string | null;
  @ApiProperty({ type: String, format: 'date', nullable: true }) opened_on: string | null;
  @ApiProperty({ description: 'Writes that name no account go here' }) is_default: boolean;
  @ApiProperty({ type: 'integer' }) transaction_count: number;
  @ApiProperty({ format: 'date-time' }) created_at: string;

  static from(account: PortfolioAccount, transactionCount: number): AccountResponse {
    return {
      id: account.id,
      name: account.name,
      kind: account.kind,
      brokerage: account.brokerage,
      opened_on: account.openedOn,
      is_default: account.isDefault,
      transaction_count: transactionCount,
      created_at: account.createdAt.toISOString(),
    };
  }
}

export class AccountListResponse {
  @ApiProperty({ type: [AccountResponse] }) accounts: AccountResponse[];
}
