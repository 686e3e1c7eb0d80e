// What the application uses of the administration routes: their module.
export { AdminModule } from './admin.module';
