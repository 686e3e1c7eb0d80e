import { Global, Module } from '@nestjs/common';
import { DrainState } from './drain-state';

@Global()
@Module({ providers: [DrainState], exports: [DrainState] })
export class LifecycleModule {}
