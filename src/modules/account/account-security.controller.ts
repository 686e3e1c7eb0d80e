import { Body, Controller, Delete, Get, HttpCode, Param, Post } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiBody,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
  ApiTooManyRequestsResponse,
} from '@nestjs/swagger';
import { AuthUser } from '../../common/auth/auth-user';
import { Client, ClientInfo } from '../../common/auth/client.decorator';
import { CurrentUser } from '../../common/auth/current-user.decorator';
import { ErrorDetail } from '../../common/errors/error-details';
import { MessageResponse } from '../../common/http/message.response';
import { AccountService } from './account.service';
import { ChangePasswordDto, SessionIdParams } from './dto/account.dto';
import { SessionResponse } from './dto/session.response';

export const LOCKOUT = `\`${ErrorDetail.tooManyFailedLogins}\`: wrong passwords count like failed logins (10 per email and address in 15 minutes); see Retry-After`;

/** A user's own password and sessions. */
@ApiTags('auth')
@Controller('auth')
export class AccountSecurityController {
  constructor(private readonly account: AccountService) {}

  @Post('change-password')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Change your password',
    description:
      'Needs the current password. The new one is held to the password rules (docs/accounts.md). ' +
      'Every other session ends; the calling one goes on.',
  })
  @ApiBody({
    type: ChangePasswordDto,
    examples: {
      change: {
        value: { current_password: 'correct horse battery staple', new_password: 'a much better passphrase' },
      },
    },
  })
  @ApiOkResponse({ type: MessageResponse, example: { message: 'Password changed' } })
  @ApiBadRequestResponse({ description: `\`${ErrorDetail.incorrectPassword}\`` })
  @ApiTooManyRequestsResponse({ description: LOCKOUT })
  async changePassword(
    @CurrentUser() caller: AuthUser,
    @Client() client: ClientInfo,
    @Body() dto: ChangePasswordDto,
  ): Promise<MessageResponse> {
    await this.account.changePassword(caller, client, dto.current_password, dto.new_password);
    return { message: 'Password changed' };
  }

  @Get('sessions')
  @ApiOperation({
    summary: 'Your live sessions, the most recently used first; `current` marks the calling one',
  })
  @ApiOkResponse({ type: SessionResponse, isArray: true })
  async sessions(@CurrentUser() caller: AuthUser): Promise<SessionResponse[]> {
    const sessions = await this.account.listSessions(caller);
    return sessions.map((session) => SessionResponse.from(session, caller.sessionId));
  }

  @Delete('sessions/:session_id')
  @ApiOperation({ summary: 'End one of your sessions (its access and refresh tokens stop working)' })
  @ApiOkResponse({ type: MessageResponse, example: { message: 'Session revoked' } })
  @ApiNotFoundResponse({ description: `\`${ErrorDetail.sessionNotFound}\`: not a live session of yours` })
  async endSession(
    @CurrentUser() caller: AuthUser,
    @Param() params: SessionIdParams,
  ): Promise<MessageResponse> {
    await this.account.endSession(caller, params.session_id);
    return { message: 'Session revoked' };
  }
}
