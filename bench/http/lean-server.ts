// The lean reference of the HTTP benchmark (issue 23): what a user of this stack would write for
// the light routes with nothing of their own — NestJS 11 on Fastify, passport-jwt behind a global
// AuthGuard verifying the same HS256 access token, the global ValidationPipe, nestjs-pino request
// logging and helmet's headers — answering /auth/me, a quote from memory and preferences from
// memory in the service's shapes. It is the floor this design can reach on those routes. Run with
// ts-node (transpile-only), which emits the decorator metadata Nest's injection reads; tsx does not.
import 'reflect-metadata';
import {
  Controller,
  createParamDecorator,
  ExecutionContext,
  Get,
  Injectable,
  Module,
  NotFoundException,
  Param,
  ValidationPipe,
} from '@nestjs/common';
import { APP_GUARD, NestFactory } from '@nestjs/core';
import { AuthGuard, PassportModule, PassportStrategy } from '@nestjs/passport';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import helmet from 'helmet';
import { Logger, LoggerModule } from 'nestjs-pino';
import { createSecretKey } from 'node:crypto';
import { ExtractJwt, Strategy } from 'passport-jwt';

interface BenchUser {
  id: number;
}

const key = createSecretKey(Buffer.from(process.env.SECRET_KEY ?? '', 'utf8'));

@Injectable()
class JwtStrategy extends PassportStrategy(Strategy, 'jwt') {
  constructor() {
    super({
      jwtFromRequest: ExtractJwt.fromAuthHeaderAsBearerToken(),
      secretOrKey: key as unknown as Buffer,
      algorithms: ['HS256'],
      ignoreExpiration: false,
    });
  }

  validate(claims: { sub?: string; type?: string }): BenchUser | false {
    return claims.type === 'access' ? { id: Number(claims.sub) } : false;
  }
}

const CurrentUser = createParamDecorator(
  (_: unknown, context: ExecutionContext) => context.switchToHttp().getRequest<{ user: BenchUser }>().user,
);

@Injectable()
class QuoteStore {
  private readonly quotes = new Map<string, Record<string, unknown>>();

  quote(symbol: string): Record<string, unknown> {
    const upper = symbol.toUpperCase();
    let quote = this.quotes.get(upper);
    if (!quote) {
      if (!/^[A-Z.^-]{1,10}$/.test(upper)) throw new NotFoundException(`Stock ${symbol} not found`);
      quote = {
        symbol: upper,
        name: `${upper} Inc.`,
        price: 412.35,
        change: 3.1,
        change_percent: 0.758,
        volume: 18_234_100,
        market_cap: 3_065_000_000_000,
        pe_ratio: 35.2,
        dividend_yield: 0.72,
        week_52_high: 468.35,
        week_52_low: 309.45,
        last_updated: '2026-11-26T21:00:00.000Z',
      };
      this.quotes.set(upper, quote);
    }
    return quote;
  }
}

@Controller('auth')
class AuthController {
  @Get('me')
  me(@CurrentUser() user: BenchUser) {
    return {
      id: user.id,
      email: 'bench@example.com',
      full_name: 'Bench User',
      is_active: true,
      is_superuser: false,
      created_at: '2025-01-01T00:00:00.000Z',
      updated_at: null,
    };
  }
}

@Controller('market')
class MarketController {
  constructor(private readonly store: QuoteStore) {}

  @Get('stock/:symbol')
  stock(@Param('symbol') symbol: string) {
    return this.store.quote(symbol);
  }
}

@Controller('preferences')
class PreferencesController {
  private readonly byUser = new Map<number, Record<string, unknown>>();

  @Get()
  preferences(@CurrentUser() user: BenchUser) {
    let preferences = this.byUser.get(user.id);
    if (!preferences) {
      preferences = {
        id: user.id,
        user_id: user.id,
        experience_level: 'intermediate',
        risk_tolerance: 'moderate',
        investment_goals: [],
        preferred_sectors: [],
        watchlist: 'ADBE CRM NVDA NFLX ADP AXP GS MS BLK SPGI LMT F DHR TMO ISRG SYK CL KMB GIS EL'.split(
          ' ',
        ),
        created_at: '2025-01-01T00:00:00.000Z',
        updated_at: null,
      };
      this.byUser.set(user.id, preferences);
    }
    return preferences;
  }
}

@Module({
  imports: [PassportModule, LoggerModule.forRoot({ pinoHttp: { level: 'info' } })],
  controllers: [AuthController, MarketController, PreferencesController],
  providers: [JwtStrategy, QuoteStore, { provide: APP_GUARD, useClass: AuthGuard('jwt') }],
})
class LeanModule {}

async function main(): Promise<void> {
  const app = await NestFactory.create<NestFastifyApplication>(
    LeanModule,
    new FastifyAdapter({ routerOptions: { ignoreTrailingSlash: true } }),
    {
      bufferLogs: true,
    },
  );
  app.useLogger(app.get(Logger));
  app.setGlobalPrefix('api/v1');
  app.useGlobalPipes(new ValidationPipe({ transform: true, whitelist: true }));
  app.use(helmet());
  await app.listen(Number(process.env.PORT), '127.0.0.1');
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
