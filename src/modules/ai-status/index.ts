// What other modules may use of the model's status: the module and the probe the health and
// the assistant read.
export { AiStatusModule } from './ai-status.module';
export { AiStatus } from './ai-status.service';
