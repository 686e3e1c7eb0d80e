export { AuthModule } from './auth.module';
export { AuthService } from './auth.service';
export { LoginThrottleService } from './login-throttle.service';
export { SessionsService } from './sessions.service';
export type { SessionSummary } from './sessions.service';
