import { applyDecorators } from '@nestjs/common';
import { ApiBearerAuth, ApiUnauthorizedResponse } from '@nestjs/swagger';
import { ErrorDetail } from '../errors/error-details';

/**
 * Swagger for what needs a Bearer access token (a controller or one route): the scheme and the
 * 401 a missing, expired or revoked token gets.
 */
export const ApiBearerAccess = () =>
  applyDecorators(
    ApiBearerAuth(),
    ApiUnauthorizedResponse({ description: `\`${ErrorDetail.couldNotValidateCredentials}\`` }),
  );
