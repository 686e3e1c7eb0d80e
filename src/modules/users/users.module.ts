import { Inject, Module, OnApplicationBootstrap } from '@nestjs/common';
import { ConfigType } from '@nestjs/config';
import { TypeOrmModule } from '@nestjs/typeorm';
import { authConfig } from '../../config/auth.config';
import { UserEntity } from './entities/user.entity';
import { PasswordHasher } from './password-hasher';
import { PasswordPolicy } from './password-policy';
import { UserAdministrationService } from './user-administration.service';
import { UsersController } from './users.controller';
import { UsersRepository } from './users.repository';
import { UsersService } from './users.service';

@Module({
  imports: [TypeOrmModule.forFeature([UserEntity])],
  controllers: [UsersController],
  providers: [UsersRepository, UsersService, UserAdministrationService, PasswordHasher, PasswordPolicy],
  exports: [UsersService, UserAdministrationService],
})
export class UsersModule implements OnApplicationBootstrap {
  constructor(
    private readonly users: UsersService,
    @Inject(authConfig.KEY) private readonly auth: ConfigType<typeof authConfig>,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    if (this.auth.firstSuperuser) {
      await this.users.ensureSuperuser(this.auth.firstSuperuser.email, this.auth.firstSuperuser.password);
    }
  }
}
