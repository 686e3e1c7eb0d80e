import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post } from '@nestjs/common';
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
import { MessageResponse } from '../auth/dto/token-pair.response';
import { UserResponse } from '../users/dto/user.response';
import { AccountService } from './account.service';
import { ChangePasswordDto, DeleteMeDto, SessionIdParams, UpdateMeDto } from './dto/account.dto';
import { SessionResponse } from './dto/session.response';

const LOCKOUT = `\`${ErrorDetail.tooManyFailedLogins}\`: wrong passwords count like failed logins (10 per email and address in 15 minutes); see Retry-After`;

/** A user's own account: password, sessions, profile and deletion. */
@Controller()
export class AccountController {
  constructor(private readonly account: AccountService) {}

  @ApiTags('auth')
  @Post('auth/change-password')
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

  @ApiTags('auth')
  @Get('auth/sessions')
  @ApiOperation({
    summary: 'Your live sessions, the most recently used first; `current` marks the calling one',
  })
  @ApiOkResponse({ type: SessionResponse, isArray: true })
  async sessions(@CurrentUser() caller: AuthUser): Promise<SessionResponse[]> {
    const sessions = await this.account.listSessions(caller);
    return sessions.map((session) => SessionResponse.from(session, caller.sessionId));
  }

  @ApiTags('auth')
  @Delete('auth/sessions/:session_id')
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

  @ApiTags('users')
  @Patch('users/me')
  @ApiOperation({
    summary: 'Edit your profile',
    description: 'Every field optional. A new `email` (your login) needs `current_password`.',
  })
  @ApiBody({
    type: UpdateMeDto,
    examples: {
      name: { summary: 'Rename', value: { full_name: 'Ada King' } },
      email: {
        summary: 'New email',
        value: { email: 'ada.king@example.com', current_password: 'correct horse battery staple' },
      },
    },
  })
  @ApiOkResponse({ type: UserResponse })
  @ApiBadRequestResponse({
    description: `\`${ErrorDetail.incorrectPassword}\`; \`${ErrorDetail.emailInUseByAnotherUser}\``,
  })
  @ApiTooManyRequestsResponse({ description: LOCKOUT })
  async updateMe(
    @CurrentUser() caller: AuthUser,
    @Client() client: ClientInfo,
    @Body() dto: UpdateMeDto,
  ): Promise<UserResponse> {
    const user = await this.account.updateProfile(caller, client, {
      fullName: dto.full_name,
      email: dto.email,
      currentPassword: dto.current_password,
    });
    return UserResponse.from(user);
  }

  @ApiTags('users')
  @Delete('users/me')
  @ApiOperation({
    summary: 'Delete your account and everything that is yours',
    description:
      'Needs your password. Removes the account, its sessions, preferences, portfolio, settings, ' +
      'idempotency keys and conversations, permanently.',
  })
  @ApiBody({
    type: DeleteMeDto,
    examples: { confirm: { value: { password: 'correct horse battery staple' } } },
  })
  @ApiOkResponse({ type: MessageResponse, example: { message: 'Account deleted' } })
  @ApiBadRequestResponse({
    description: `\`${ErrorDetail.incorrectPassword}\`; \`${ErrorDetail.cannotDeleteLastSuperuser}\``,
  })
  @ApiTooManyRequestsResponse({ description: LOCKOUT })
  async deleteMe(
    @CurrentUser() caller: AuthUser,
    @Client() client: ClientInfo,
    @Body() dto: DeleteMeDto,
  ): Promise<MessageResponse> {
    await this.account.deleteAccount(caller, client, dto.password);
    return { message: 'Account deleted' };
  }
}
