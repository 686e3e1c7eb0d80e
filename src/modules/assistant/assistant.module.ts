import { Module } from '@nestjs/common';
import { ConfigType } from '@nestjs/config';
import { TypeOrmModule } from '@nestjs/typeorm';
import { assistantConfig } from '../../config/assistant.config';
import { GraphModule } from '../graph';
import { MarketModule } from '../market';
import { NewsModule } from '../news';
import { PortfolioModule } from '../portfolio';
import { PreferencesModule } from '../preferences';
import { ReplayModule } from '../replay';
import { AiStatusModule } from '../ai-status';
import { AssistantController } from './assistant.controller';
import { BriefingService } from './briefing/briefing.service';
import { ChatRateLimiter } from './chat-rate-limiter';
import { ChatService } from './chat.service';
import { ConversationsRepository } from './conversations.repository';
import { ConversationsService } from './conversations.service';
import { ChatEngine } from './engines/chat-engine';
import { OfflineEngine } from './engines/offline/offline-engine';
import { OpenAiEngine } from './engines/openai/openai-engine';
import { OpenStreams } from './open-streams';
import { StreamSlotGuard } from './stream-slot.guard';
import { ConversationMessageEntity } from './entities/conversation-message.entity';
import { ConversationEntity } from './entities/conversation.entity';
import { AssistantTools } from './tools/assistant-tools.service';
import { MarketGraphTools } from './tools/market-graph-tools.service';
import { WindowCountersModule } from '../../common/rate-limit/window-counters.module';

@Module({
  imports: [
    TypeOrmModule.forFeature([ConversationEntity, ConversationMessageEntity]),
    AiStatusModule,
    WindowCountersModule,
    GraphModule,
    MarketModule,
    ReplayModule,
    NewsModule,
    PortfolioModule,
    PreferencesModule,
  ],
  controllers: [AssistantController],
  providers: [
    AssistantTools,
    MarketGraphTools,
    OfflineEngine,
    OpenAiEngine,
    {
      provide: ChatEngine,
      inject: [assistantConfig.KEY, OfflineEngine, OpenAiEngine],
      useFactory: (
        config: ConfigType<typeof assistantConfig>,
        offline: OfflineEngine,
        model: OpenAiEngine,
      ) => (config.provider === 'offline' ? offline : model),
    },
    ChatRateLimiter,
    ChatService,
    ConversationsRepository,
    ConversationsService,
    BriefingService,
    OpenStreams,
    StreamSlotGuard,
  ],
  exports: [BriefingService],
})
export class AssistantModule {}
