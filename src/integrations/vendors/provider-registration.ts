import type { VendorKeyVariable } from '../../config/vendors.config';
import type { KeyedVendorOptions } from './http/per-symbol-vendor.provider';

/** How a provider name becomes a provider: the key it needs (checked at boot) and its factory. */
export interface ProviderRegistration<Dependencies, Provider> {
  /** Set for a vendor that needs a key; the boot stops when the provider is chosen without it. */
  apiKeyVariable?: VendorKeyVariable;
  create(dependencies: Dependencies): Provider;
}

/** A keyed vendor's options: the config has stopped the boot if the chosen provider's key is unset. */
export function keyedOptions({
  apiKey,
  baseUrl,
}: {
  apiKey: string | null;
  baseUrl: string;
}): KeyedVendorOptions {
  return { apiKey: apiKey!, baseUrl };
}
