// What other modules may use of authentication: the module, the sessions and login throttle the
// account routes drive, and the service the administration revokes sessions through.
export { AuthModule } from './auth.module';
export { AuthService } from './auth.service';
export { LoginThrottleService } from './login-throttle.service';
export { SessionsService } from './sessions.service';
export type { SessionSummary } from './sessions.service';
