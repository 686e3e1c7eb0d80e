import { Global, Module } from '@nestjs/common';
import { CleanupRunner } from './cleanup-runner';
import { JobRunner } from './job-runner';

@Global()
@Module({ providers: [JobRunner, CleanupRunner], exports: [JobRunner, CleanupRunner] })
export class JobsModule {}
