import { Controller, Post, Query, Req, Res } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiConflictResponse,
  ApiCreatedResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiPayloadTooLargeResponse,
  ApiTags,
  ApiUnprocessableEntityResponse,
} from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AuthUser } from '../../common/auth/auth-user';
import { CurrentUser } from '../../common/auth/current-user.decorator';
import { BrokerImportService } from './broker-import/broker-import.service';
import { uploadedBody } from './broker-import/upload-body';
import { uploadText } from './broker-import/upload-text';
import { BrokerImportQuery } from './dto/broker-import.query';
import { BrokerImportResponse } from './dto/broker-import.response';

@ApiTags('portfolio')
@Controller('portfolio/import')
export class BrokerImportController {
  constructor(private readonly imports: BrokerImportService) {}

  @Post()
  @ApiOperation({
    summary: "Import a brokerage's transaction export as downloaded (preview first with dry_run)",
    description:
      'The file as the brokerage gives it (Schwab, Fidelity, Vanguard, TD Ameritrade, Interactive Brokers, ' +
      "Robinhood, E*TRADE, Webull, Merrill Edge, or this service's own CSV), as a multipart `file` or a " +
      "text/csv body, UTF-8 (a BOM is fine), at most 16 MiB. Rows map onto the ledger's kinds; what the ledger " +
      'cannot represent (options, bonds, FX, other currencies, corporate actions, share transfers) is skipped with ' +
      'a reason per row. `dry_run=true` answers the preview and a `preview_token`; `?preview_token=` then records ' +
      'exactly that preview. Without either, the file is recorded at once unless a row is rejected (422 listing ' +
      'them at `loc: ["body", "line", <line>]`). A broker transaction already imported (by its id, or a ' +
      'fingerprint of its row) is never recorded twice. See docs/importing.md.',
    // Committing a preview (`?preview_token=`) sends no file, so the body is optional. Each media type
    // has its own schema (which @ApiBody cannot say): a text/csv body is the file's text itself.
    requestBody: {
      required: false,
      content: {
        'multipart/form-data': {
          schema: {
            type: 'object',
            properties: { file: { type: 'string', format: 'binary', description: 'The export' } },
          },
        },
        'text/csv': { schema: { type: 'string', description: "The export's text" } },
      },
    },
  })
  @ApiOkResponse({ type: BrokerImportResponse, description: 'The preview of a dry run' })
  @ApiCreatedResponse({ type: BrokerImportResponse, description: 'Recorded' })
  @ApiNotFoundResponse({ description: 'The preview token is unknown, expired or committed already' })
  @ApiBadRequestResponse({
    description:
      'The ledger would exceed PORTFOLIO_MAX_TRANSACTIONS, or (committing a preview) changed since so that a row no longer fits',
  })
  @ApiConflictResponse({
    description: 'Some of the rows were recorded by another import since the file was read',
  })
  @ApiPayloadTooLargeResponse({ description: 'Over 16 MiB' })
  @ApiUnprocessableEntityResponse({
    description:
      'Empty, binary, UTF-16 or not UTF-8; no layout recognised (ctx.closest names the closest layouts and the ' +
      'columns they missed); no transactions; too many rows; rejected rows (without dry_run)',
  })
  async importExport(
    @CurrentUser() user: AuthUser,
    @Query() query: BrokerImportQuery,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<BrokerImportResponse> {
    if (query.preview_token !== undefined) {
      void reply.status(201);
      return this.imports.commitPreview(user.id, query.preview_token);
    }
    const text = uploadText(await uploadedBody(request));
    const answer = await this.imports.importExport({
      userId: user.id,
      text,
      format: query.format,
      dryRun: query.dry_run,
      accountId: query.account_id,
    });
    void reply.status(query.dry_run ? 200 : 201);
    return answer;
  }
}
