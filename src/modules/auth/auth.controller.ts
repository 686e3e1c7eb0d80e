import { Body, Controller, Get, Header, HttpCode, Post } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiBody,
  ApiConsumes,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
  ApiTooManyRequestsResponse,
  ApiUnauthorizedResponse,
} from '@nestjs/swagger';
import { AuthUser } from '../../common/auth/auth-user';
import { Client, ClientInfo } from '../../common/auth/client.decorator';
import { CurrentUser } from '../../common/auth/current-user.decorator';
import { Public } from '../../common/auth/public.decorator';
import { ErrorDetail } from '../../common/errors/error-details';
import { UserResponse, UsersService } from '../users';
import { AuthService } from './auth.service';
import { RateLimited } from '../../common/rate-limit/rate-limited.decorator';
import { LoginDto } from './dto/login.dto';
import { LogoutDto, RefreshDto } from './dto/refresh.dto';
import { MessageResponse } from '../../common/http/message.response';
import { TokenPairResponse } from './dto/token-pair.response';
import { RefreshCookie } from './refresh-cookie';

const FORM_OR_JSON = ['application/x-www-form-urlencoded', 'application/json'];

@ApiTags('auth')
@Controller('auth')
export class AuthController {
  constructor(
    private readonly auth: AuthService,
    private readonly users: UsersService,
  ) {}

  @Public()
  @Post('login')
  @RateLimited('login')
  @HttpCode(200)
  @Header('Cache-Control', 'no-store')
  @Header('Pragma', 'no-cache')
  @RefreshCookie('issue')
  @ApiOperation({ summary: 'Log in with email (as `username`) and password' })
  @ApiConsumes(...FORM_OR_JSON)
  @ApiOkResponse({ type: TokenPairResponse })
  @ApiUnauthorizedResponse({ description: `\`${ErrorDetail.incorrectCredentials}\`` })
  @ApiBadRequestResponse({ description: `\`${ErrorDetail.inactiveUser}\`` })
  @ApiTooManyRequestsResponse({
    description:
      `\`${ErrorDetail.tooManyFailedLogins}\` after 10 failures for one email from one IP within 15 minutes; ` +
      `\`${ErrorDetail.tooManyRequests}\` over the per-address or global login rate; see Retry-After`,
  })
  async login(@Body() dto: LoginDto, @Client() client: ClientInfo): Promise<TokenPairResponse> {
    return TokenPairResponse.from(await this.auth.login(dto.username, dto.password, client));
  }

  @Public()
  @Post('refresh')
  @RateLimited('refresh')
  @HttpCode(200)
  @Header('Cache-Control', 'no-store')
  @Header('Pragma', 'no-cache')
  @RefreshCookie('rotate')
  @ApiOperation({
    summary: 'Exchange a refresh token for a new pair (the presented one is revoked)',
    description:
      'With `AUTH_REFRESH_COOKIE=true`, login and refresh also set the refresh token as an HttpOnly cookie ' +
      '(`Path=/api/v1/auth`), and a request without `refresh_token` in its body uses the cookie, ' +
      'from a page whose `Origin` is one of `CORS_ORIGINS` only (401 otherwise).',
  })
  @ApiConsumes(...FORM_OR_JSON)
  @ApiOkResponse({ type: TokenPairResponse })
  @ApiUnauthorizedResponse({ description: `\`${ErrorDetail.invalidRefreshToken}\`` })
  @ApiBadRequestResponse({ description: `\`${ErrorDetail.inactiveUser}\`` })
  @ApiTooManyRequestsResponse({
    description: `\`${ErrorDetail.tooManyRequests}\` over the per-address refresh rate; see Retry-After`,
  })
  async refresh(@Body() dto: RefreshDto, @Client() client: ClientInfo): Promise<TokenPairResponse> {
    return TokenPairResponse.from(await this.auth.refresh(dto.refresh_token, client));
  }

  @Get('me')
  @ApiOperation({ summary: 'The current user' })
  @ApiOkResponse({ type: UserResponse })
  async me(@CurrentUser() user: AuthUser): Promise<UserResponse> {
    return UserResponse.fromAuthState(user.id, (await this.users.authState(user.id))!);
  }

  @Post('logout')
  @HttpCode(200)
  @RefreshCookie('clear')
  @ApiOperation({
    summary: "Revoke the calling token's session (and an optional refresh_token's, if the caller's)",
  })
  @ApiConsumes(...FORM_OR_JSON)
  // The body is optional: a plain logout sends none.
  @ApiBody({ type: LogoutDto, required: false })
  @ApiOkResponse({ type: MessageResponse })
  async logout(@CurrentUser() user: AuthUser, @Body() dto: LogoutDto): Promise<MessageResponse> {
    await this.auth.logout(user.id, user.sessionId, dto.refresh_token);
    return { message: 'Successfully logged out' };
  }

  @Post('logout-all')
  @HttpCode(200)
  @RefreshCookie('clear')
  @ApiOperation({ summary: 'Revoke every session of the caller' })
  @ApiOkResponse({ type: MessageResponse })
  async logoutAll(@CurrentUser() user: AuthUser): Promise<MessageResponse> {
    await this.auth.logoutEverywhere(user.id);
    return { message: 'Successfully logged out from all sessions' };
  }
}
