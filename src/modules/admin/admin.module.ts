import { Module } from '@nestjs/common';
import { AuthModule } from '../auth';
import { UsersModule } from '../users';
import { AccountAdministrationService } from './account-administration.service';
import { AdminUsersController } from './admin-users.controller';

@Module({
  imports: [UsersModule, AuthModule],
  controllers: [AdminUsersController],
  providers: [AccountAdministrationService],
})
export class AdminModule {}
