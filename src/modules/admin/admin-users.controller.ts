import { Body, Controller, Delete, Get, Param, Patch, Post, Put, Query } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiCreatedResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import { AuthUser } from '../../common/auth/auth-user';
import { CurrentUser } from '../../common/auth/current-user.decorator';
import { SuperuserOnly } from '../../common/auth/superuser.guard';
import { ErrorDetail } from '../../common/errors/error-details';
import { MessageResponse } from '../../common/http/message.response';
import { AdminUserResponse, UserAdministrationService } from '../users';
import { AccountAdministrationService } from './account-administration.service';
import { CreateAdminUserDto, ListUsersQuery, UpdateAdminUserDto, UserIdParams } from './dto/admin-user.dto';

@ApiTags('admin')
@SuperuserOnly()
@Controller('admin/users')
export class AdminUsersController {
  constructor(
    private readonly admin: UserAdministrationService,
    private readonly accounts: AccountAdministrationService,
  ) {}

  @Post()
  @ApiOperation({ summary: 'Create a user' })
  @ApiCreatedResponse({ type: AdminUserResponse })
  @ApiBadRequestResponse({ description: `\`${ErrorDetail.emailAlreadyRegistered}\`` })
  async create(@Body() dto: CreateAdminUserDto): Promise<AdminUserResponse> {
    const user = await this.admin.create({
      email: dto.email,
      password: dto.password,
      fullName: dto.full_name,
      isActive: dto.is_active,
      isSuperuser: dto.is_superuser,
    });
    return AdminUserResponse.from(user);
  }

  @Get()
  @ApiOperation({ summary: 'List users ordered by id' })
  @ApiOkResponse({ type: AdminUserResponse, isArray: true })
  async list(@Query() query: ListUsersQuery): Promise<AdminUserResponse[]> {
    return (await this.admin.list(query.skip, query.limit)).map(AdminUserResponse.from);
  }

  @Get(':user_id')
  @ApiOperation({ summary: 'Get a user' })
  @ApiOkResponse({ type: AdminUserResponse })
  @ApiNotFoundResponse({ description: `\`${ErrorDetail.userNotFound}\`` })
  async get(@Param() params: UserIdParams): Promise<AdminUserResponse> {
    return AdminUserResponse.from(await this.admin.get(params.user_id));
  }

  @Put(':user_id')
  @ApiOperation({ summary: 'Update a user (every field optional)' })
  @ApiOkResponse({ type: AdminUserResponse })
  @ApiBadRequestResponse({
    description: `\`${ErrorDetail.emailInUseByAnotherUser}\`; \`${ErrorDetail.cannotDeactivateLastSuperuser}\`; \`${ErrorDetail.cannotDemoteLastSuperuser}\``,
  })
  @ApiNotFoundResponse({ description: `\`${ErrorDetail.userNotFound}\`` })
  async update(
    @Param() params: UserIdParams,
    @Body() dto: UpdateAdminUserDto,
    @CurrentUser() caller: AuthUser,
  ): Promise<AdminUserResponse> {
    const user = await this.accounts.update(params.user_id, caller.id, {
      email: dto.email,
      fullName: dto.full_name,
      password: dto.password,
      isActive: dto.is_active,
      isSuperuser: dto.is_superuser,
    });
    return AdminUserResponse.from(user);
  }

  @Delete(':user_id')
  @ApiOperation({ summary: 'Delete a user permanently' })
  @ApiOkResponse({ type: MessageResponse })
  @ApiBadRequestResponse({
    description: `\`${ErrorDetail.cannotDeleteOwnAccount}\`; \`${ErrorDetail.cannotDeleteLastSuperuser}\``,
  })
  @ApiNotFoundResponse({ description: `\`${ErrorDetail.userNotFound}\`` })
  async delete(@Param() params: UserIdParams, @CurrentUser() caller: AuthUser): Promise<MessageResponse> {
    await this.admin.delete(params.user_id, caller.id);
    return { message: 'User deleted successfully' };
  }

  @Patch(':user_id/activate')
  @ApiOperation({ summary: 'Activate a user' })
  @ApiOkResponse({ type: AdminUserResponse })
  @ApiNotFoundResponse({ description: `\`${ErrorDetail.userNotFound}\`` })
  async activate(@Param() params: UserIdParams, @CurrentUser() caller: AuthUser): Promise<AdminUserResponse> {
    return AdminUserResponse.from(await this.accounts.setActive(params.user_id, true, caller.id));
  }

  @Patch(':user_id/deactivate')
  @ApiOperation({ summary: 'Deactivate a user (not yourself)' })
  @ApiOkResponse({ type: AdminUserResponse })
  @ApiBadRequestResponse({
    description: `\`${ErrorDetail.cannotDeactivateOwnAccount}\`; \`${ErrorDetail.cannotDeactivateLastSuperuser}\``,
  })
  @ApiNotFoundResponse({ description: `\`${ErrorDetail.userNotFound}\`` })
  async deactivate(
    @Param() params: UserIdParams,
    @CurrentUser() caller: AuthUser,
  ): Promise<AdminUserResponse> {
    return AdminUserResponse.from(await this.accounts.setActive(params.user_id, false, caller.id));
  }
}
