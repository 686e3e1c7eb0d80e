import { ApiProperty } from '@nestjs/swagger';
import { ENTRY_KINDS, TransactionKind } from '../analytics/ledger-replay';
import { BROKER_FORMATS, BrokerFormat } from '../broker-import/broker-export';

export class ImportPreviewRow {
  @ApiProperty({ type: 'integer', description: 'The line of the file (1-based) the row starts on' })
  line: number;

  @ApiProperty({ enum: ENTRY_KINDS })
  side: TransactionKind;

  @ApiProperty({ example: '2024-06-03', description: 'The exchange date it is recorded on' })
  date: string;

  @ApiProperty({ type: String, nullable: true, example: 'AAPL' })
  symbol: string | null;

  @ApiProperty({
    type: Number,
    nullable: true,
    description: 'Buys, sells and share transfers only (unsigned)',
  })
  quantity: number | null;

  @ApiProperty({ type: Number, nullable: true, description: 'USD per share. Buy and sell only' })
  price: number | null;

  @ApiProperty({ type: Number, nullable: true, description: 'USD. Buy and sell only' })
  fees: number | null;

  @ApiProperty({
    type: Number,
    nullable: true,
    description: 'USD: dividend (gross), deposit, withdrawal, fee, interest',
  })
  amount: number | null;

  @ApiProperty({ type: Number, nullable: true, description: 'USD withheld from a dividend' })
  withholding_tax: number | null;

  @ApiProperty({ type: String, nullable: true, example: '4:1', description: 'Splits only' })
  ratio: string | null;

  @ApiProperty({ description: "Stored as the transaction note: brokerage, line and the broker's words" })
  note: string;

  @ApiProperty({
    type: 'integer',
    nullable: true,
    description: "A reinvested dividend and the buy it paid for name each other's line",
  })
  paired_with: number | null;
}

export class ImportSkippedRow {
  @ApiProperty({ type: 'integer' })
  line: number;

  @ApiProperty({ description: "The broker's words for the row" })
  action: string;

  @ApiProperty({ example: 'an option trade: the ledger holds shares only' })
  reason: string;
}

export class ImportRejectedRow {
  @ApiProperty({ type: 'integer' })
  line: number;

  @ApiProperty({ example: 'Stock XYZ not found: the market-data provider does not know it' })
  reason: string;
}

export class ImportDuplicateRow {
  @ApiProperty({ type: 'integer' })
  line: number;

  @ApiProperty({ type: 'integer', description: 'The transaction an earlier import recorded it as' })
  transaction_id: number;
}

export class ImportCombinedRow {
  @ApiProperty({ type: 'integer' })
  line: number;

  @ApiProperty({
    type: 'integer',
    description: 'The line of the entry it is recorded on (withholding tax on its dividend, a split leg)',
  })
  into: number;
}

export class ImportRefusal {
  @ApiProperty({
    example: 'Insufficient cash for this buy',
    description: 'The `detail` the commit answers with (400)',
  })
  detail: string;

  @ApiProperty({
    type: 'integer',
    nullable: true,
    description: 'The row that takes the cash below zero under strict cash; null for the ledger cap',
  })
  line: number | null;
}

export class BrokerImportResponse {
  @ApiProperty({ enum: BROKER_FORMATS, description: 'The format read: the one named, or the one detected' })
  format: BrokerFormat;

  @ApiProperty({
    example: 'Transactions (with title line)',
    description: "Which of the format's layouts the file is in",
  })
  layout: string;

  @ApiProperty({ description: 'Whether the format was detected (`format=auto`)' })
  detected: boolean;

  @ApiProperty()
  dry_run: boolean;

  @ApiProperty({
    type: String,
    nullable: true,
    format: 'uuid',
    description: 'Dry runs only: commit with `?preview_token=`',
  })
  preview_token: string | null;

  @ApiProperty({ type: String, nullable: true, format: 'date-time' })
  expires_at: string | null;

  @ApiProperty({
    type: 'object',
    additionalProperties: { type: 'integer' },
    example: { buy: 41, dividend: 35 },
    description: 'What is (or would be) recorded, by kind',
  })
  counts: Partial<Record<TransactionKind, number>>;

  @ApiProperty({ type: 'integer' })
  to_record: number;

  @ApiProperty({ type: 'integer', description: '0 on a dry run' })
  recorded: number;

  @ApiProperty({ type: [ImportPreviewRow], description: 'The first 20 rows to record, in recording order' })
  rows: ImportPreviewRow[];

  @ApiProperty({ type: [ImportSkippedRow], description: 'Every row the ledger cannot represent, with why' })
  skipped: ImportSkippedRow[];

  @ApiProperty({
    type: [ImportRejectedRow],
    description: 'Every row refused (unknown symbol, bad cell, impossible for the ledger)',
  })
  rejected: ImportRejectedRow[];

  @ApiProperty({ type: [ImportDuplicateRow], description: 'Rows an earlier import recorded already' })
  duplicates: ImportDuplicateRow[];

  @ApiProperty({ type: [ImportCombinedRow] })
  combined: ImportCombinedRow[];

  @ApiProperty({ type: [String] })
  notices: string[];

  @ApiProperty({
    type: ImportRefusal,
    nullable: true,
    description:
      'Dry runs: why recording this preview would be refused although every row fits (strict cash, the ledger ' +
      'cap), with the detail its commit answers; null when it would be recorded',
  })
  refused: ImportRefusal | null;
}
