import type { DynamicModule, Provider } from '@nestjs/common';
import { APP_GUARD, APP_INTERCEPTOR } from '@nestjs/core';
import { TransactionContextModule } from './transaction-context';

function providersOf(module: DynamicModule): Provider[] {
  const imported = (module.imports ?? []).filter((each): each is DynamicModule => 'module' in each);
  return [...(module.providers ?? []), ...imported.flatMap(providersOf)];
}

describe('TransactionContextModule', () => {
  it('adds no global guard or interceptor to every route', () => {
    const provides = providersOf(TransactionContextModule).map((provider) =>
      typeof provider === 'object' ? provider.provide : provider,
    );

    expect(provides).not.toContain(APP_GUARD);
    expect(provides).not.toContain(APP_INTERCEPTOR);
  });
});
