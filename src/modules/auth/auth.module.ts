import { Module } from '@nestjs/common';
import { ConfigType } from '@nestjs/config';
import { APP_GUARD } from '@nestjs/core';
import { JwtModule } from '@nestjs/jwt';
import { PassportModule } from '@nestjs/passport';
import { TypeOrmModule } from '@nestjs/typeorm';
import { JwtAuthGuard } from '../../common/auth/jwt-auth.guard';
import { appConfig } from '../../config/app.config';
import { authConfig } from '../../config/auth.config';
import { UsersModule } from '../users';
import { AuthController } from './auth.controller';
import { AuthService } from './auth.service';
import { RefreshTokenEntity } from './entities/refresh-token.entity';
import { SessionEntity } from './entities/session.entity';
import { ExpiredSessionsPurge } from './expired-sessions.purge';
import { JwtStrategy } from './jwt.strategy';
import { LoginThrottleService } from './login-throttle.service';
import { SessionsRepository } from './sessions.repository';
import { SessionsService } from './sessions.service';
import { resolveSigningKey } from './signing-key';
import { SigningKey, TokenSigner } from './token-signer';
import { WindowCountersModule } from '../../common/rate-limit/window-counters.module';

@Module({
  imports: [
    TypeOrmModule.forFeature([SessionEntity, RefreshTokenEntity]),
    UsersModule,
    WindowCountersModule,
    PassportModule,
    JwtModule.register({}),
  ],
  controllers: [AuthController],
  providers: [
    {
      provide: SigningKey,
      inject: [appConfig.KEY, authConfig.KEY],
      useFactory: (app: ConfigType<typeof appConfig>, auth: ConfigType<typeof authConfig>) =>
        new SigningKey(
          resolveSigningKey({
            configured: auth.configuredSecretKey,
            production: app.nodeEnv === 'production',
            dataDir: app.dataDir,
          }),
          auth.algorithm,
        ),
    },
    TokenSigner,
    SessionsRepository,
    SessionsService,
    ExpiredSessionsPurge,
    LoginThrottleService,
    AuthService,
    JwtStrategy,
    { provide: APP_GUARD, useClass: JwtAuthGuard },
  ],
  exports: [AuthService, SessionsService, LoginThrottleService],
})
export class AuthModule {}
