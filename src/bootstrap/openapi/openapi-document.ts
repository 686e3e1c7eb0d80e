import { INestApplication } from '@nestjs/common';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import type { SecurityRequirementObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import { applyContract } from './openapi-contract';
import { collectRouteFacts } from './route-facts';

export const LOGIN_PATH = '/api/v1/auth/login';

/** Every tag an operation may carry, in the order Swagger UI lists them. */
export const API_TAGS: Record<string, string> = {
  auth: 'Log in with email and password, refresh and revoke tokens, the current user, your password and your sessions.',
  users: 'Self-service registration, your profile and the deletion of your account.',
  preferences: 'Investment preferences: the onboarding wizard, level defaults and the watchlist.',
  market: 'Quotes, price history, index summary, movers and symbol search.',
  news: 'Market and stock news with server-side sentiment, and a sentiment scorer for your own texts.',
  portfolio: 'The transaction ledger, positions, summary, risk metrics and rebalancing.',
  assistant:
    'The investment assistant: grounded chat (JSON or Server-Sent Events), conversations and the daily briefing. ' +
    'Information, not investment advice.',
  alerts:
    'Alert rules on prices, moves, drawdowns, news, sentiment, risk and the watchlist; each fires once per arming.',
  notifications:
    'The inbox of what the alerts wrote, its live stream (Server-Sent Events), and delivery by webhook and email.',
  admin: 'User administration. Superusers only.',
  system: 'Health of the service and its dependencies.',
};

const DESCRIPTION = [
  'Accounts, market data, news with server-side sentiment, portfolio analytics, preferences and administration.',
  '',
  'Errors are `{"detail": "<message>"}` (HTTPError); invalid input is a 422 whose `detail` lists every issue as',
  '`{loc, msg, type, ctx?}` (HTTPValidationError). Every response carries `X-Request-Id`; send your own to',
  'correlate logs.',
  '',
  `In Swagger UI, **Authorize** logs in through \`${LOGIN_PATH}\` with your email as the username.`,
].join('\n');

/** Both schemes carry the same access token: Swagger UI obtains it by logging in, other clients paste it. */
const PROTECTED_BY: SecurityRequirementObject[] = [{ OAuth2PasswordBearer: [] }, { bearer: [] }];

/**
 * The OpenAPI document served at /openapi.json, and written to client/openapi.json for the
 * generated TypeScript client (`npm run client:generate`).
 */
export function buildOpenApiDocument(app: INestApplication, version: string): OpenAPIObject {
  const builder = new DocumentBuilder()
    .setTitle('Investment assistant API')
    .setDescription(DESCRIPTION)
    .setVersion(version)
    .setLicense('MIT', 'https://opensource.org/licenses/MIT')
    .addServer('/', 'The server this document is served from')
    .addOAuth2(
      { type: 'oauth2', flows: { password: { tokenUrl: LOGIN_PATH, scopes: {} } } },
      'OAuth2PasswordBearer',
    )
    .addBearerAuth({ type: 'http', scheme: 'bearer', bearerFormat: 'JWT' }, 'bearer');
  for (const [name, description] of Object.entries(API_TAGS)) builder.addTag(name, description);
  const document = SwaggerModule.createDocument(app, builder.build());
  return applyContract(document, collectRouteFacts(app), PROTECTED_BY);
}
