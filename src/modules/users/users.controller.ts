import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
  ApiTooManyRequestsResponse,
  ApiUnprocessableEntityResponse,
} from '@nestjs/swagger';
import { Public } from '../../common/auth/public.decorator';
import { ErrorDetail } from '../../common/errors/error-details';
import { RateLimited } from '../../common/rate-limit/rate-limited.decorator';
import { RegisterUserDto } from './dto/register-user.dto';
import { UserResponse } from './dto/user.response';
import { UsersService } from './users.service';

@ApiTags('users')
@Controller('users')
export class UsersController {
  constructor(private readonly users: UsersService) {}

  @Public()
  @Post('register')
  @RateLimited('register')
  @HttpCode(200)
  @ApiOperation({ summary: 'Register a new account' })
  @ApiOkResponse({ type: UserResponse })
  @ApiBadRequestResponse({ description: `\`${ErrorDetail.emailAlreadyRegistered}\`` })
  @ApiUnprocessableEntityResponse({
    description: 'Validation failed (email, password of 8-128 characters, full_name)',
  })
  @ApiTooManyRequestsResponse({
    description: `\`${ErrorDetail.tooManyRequests}\` over the per-address or global registration rate; see Retry-After`,
  })
  async register(@Body() dto: RegisterUserDto): Promise<UserResponse> {
    return UserResponse.from(
      await this.users.create({ email: dto.email, password: dto.password, fullName: dto.full_name }),
    );
  }
}
