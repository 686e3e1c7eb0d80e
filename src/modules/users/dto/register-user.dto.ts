import { EmailField, FullNameField, PasswordField } from './user-fields';

export class RegisterUserDto {
  @EmailField()
  email: string;

  @PasswordField()
  password: string;

  @FullNameField()
  full_name: string;
}
