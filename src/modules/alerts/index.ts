export { AlertsModule } from './alerts.module';
