import { User } from '../../src/modules/users';
import { NewUser, UsersService } from '../../src/modules/users/users.service';
import { MediumModule } from './medium-module';

let sequence = 0;

/** A user written through UsersService (its password policy and hashing included). */
export function newUser(medium: MediumModule, fields: Partial<NewUser> = {}): Promise<User> {
  sequence += 1;
  return medium.get(UsersService).create({
    email: `user-${process.pid}-${sequence}@example.com`,
    password: 'correct horse battery staple',
    fullName: `User ${sequence}`,
    ...fields,
  });
}
