import { Module } from '@nestjs/common';
import { AuthModule } from '../auth';
import { UsersModule } from '../users';
import { AccountSecurityController } from './account-security.controller';
import { AccountService } from './account.service';
import { ProfileController } from './profile.controller';

/** Self-service: a user's own password, sessions, profile and deletion. */
@Module({
  imports: [UsersModule, AuthModule],
  controllers: [AccountSecurityController, ProfileController],
  providers: [AccountService],
})
export class AccountModule {}
