import { Body, Controller, Delete, Patch } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiBody,
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
import { UserResponse } from '../users';
import { LOCKOUT } from './account-security.controller';
import { AccountService } from './account.service';
import { DeleteMeDto, UpdateMeDto } from './dto/account.dto';

/** A user's own profile, and the deletion of their account. */
@ApiTags('users')
@Controller('users/me')
export class ProfileController {
  constructor(private readonly account: AccountService) {}

  @Patch()
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

  @Delete()
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
