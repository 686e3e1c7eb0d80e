import { Module } from '@nestjs/common';
import { WindowCountersRepository } from './window-counters.repository';

/** The counts of the fixed-window limiters, for the modules that limit something. */
@Module({ providers: [WindowCountersRepository], exports: [WindowCountersRepository] })
export class WindowCountersModule {}
