// What the application uses of the health routes: their module.
export { HealthModule } from './health.module';
