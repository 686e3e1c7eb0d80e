// What other modules may use of the assistant: the briefing, which the alerts deliver at the user's
// daily_summary_time.
export { BriefingService } from './briefing/briefing.service';
export type { Briefing, BriefingSection } from './briefing/briefing';
export { AssistantModule } from './assistant.module';
