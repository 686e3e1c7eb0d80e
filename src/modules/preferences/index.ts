export * from './preference-values';
export type { Preferences } from './preferences';
export { PreferencesResponse } from './dto/preferences.response';
export { PreferencesModule } from './preferences.module';
export { PreferencesService } from './preferences.service';
