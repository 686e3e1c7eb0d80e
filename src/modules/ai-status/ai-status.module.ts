import { Module } from '@nestjs/common';
import { AiStatus } from './ai-status.service';

/** The model's health as the assistant last saw it: written by the assistant, read by health. */
@Module({ providers: [AiStatus], exports: [AiStatus] })
export class AiStatusModule {}
