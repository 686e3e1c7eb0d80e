// What the application uses of the alerts: their module.
export { AlertsModule } from './alerts.module';
