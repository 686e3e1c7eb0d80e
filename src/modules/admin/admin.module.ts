import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { UsersModule } from '../users/users.module';
import { AccountAdministrationService } from './account-administration.service';
import { AdminUsersController } from './admin-users.controller';

@Module({
  imports: [UsersModule, AuthModule],
  controllers: [AdminUsersController],
  providers: [AccountAdministrationService],
})
export class AdminModule {}
