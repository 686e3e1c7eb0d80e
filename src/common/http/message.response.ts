import { ApiProperty } from '@nestjs/swagger';

/** The `{message}` answer of a route that changes something and has nothing else to return. */
export class MessageResponse {
  @ApiProperty({ example: 'Successfully logged out' })
  message: string;
}
