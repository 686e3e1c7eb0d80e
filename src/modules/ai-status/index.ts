export { AiStatusModule } from './ai-status.module';
export { AiStatus } from './ai-status.service';
