// What other modules may use of users: the module, its services, the User domain type, and the
// wire shapes of a user that the account, admin and auth routes answer with.
export type { User } from './user';
export { EmailField, FullNameField, PasswordField } from './dto/user-fields';
export { AdminUserResponse, UserResponse } from './dto/user.response';
export { UserAdministrationService } from './user-administration.service';
export type { UserChanges } from './user-administration.service';
export { UsersModule } from './users.module';
export { UsersService, canonicalEmail } from './users.service';
export type { UserAuthState } from './users.service';
