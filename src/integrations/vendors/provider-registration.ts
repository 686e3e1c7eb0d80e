import type { VendorKeyVariable } from '../../config/vendors.config';

/** How a provider name becomes a provider: the key it needs (checked at boot) and its factory. */
export interface ProviderRegistration<Dependencies, Provider> {
  /** Set for a vendor that needs a key; the boot stops when the provider is chosen without it. */
  apiKeyVariable?: VendorKeyVariable;
  create(dependencies: Dependencies): Provider;
}
