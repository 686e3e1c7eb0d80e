// What the application uses of the account routes: their module.
export { AccountModule } from './account.module';
