import { ApiProperty } from '@nestjs/swagger';
import { IsString, MaxLength } from 'class-validator';

/** Form-encoded (OAuth2 password flow) or JSON: `username` carries the email. */
export class LoginDto {
  @ApiProperty({ example: 'ada@example.com', description: "The user's email" })
  @IsString()
  @MaxLength(320)
  username: string;

  @ApiProperty({ example: 'correct horse battery staple', writeOnly: true })
  @IsString()
  @MaxLength(1024)
  password: string;
}
