export * from './preference-values';
export type { Preferences } from './preferences';
export { PreferencesModule } from './preferences.module';
export { PreferencesService } from './preferences.service';
