import {
  Body,
  Controller,
  Delete,
  Get,
  Headers,
  HttpCode,
  HttpStatus,
  Param,
  Post,
  Query,
  Req,
  Res,
  UseGuards,
} from '@nestjs/common';
import {
  ApiNoContentResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiProduces,
  ApiTags,
  ApiTooManyRequestsResponse,
} from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AuthUser } from '../../common/auth/auth-user';
import { CurrentUser } from '../../common/auth/current-user.decorator';
import { BriefingService } from './briefing/briefing.service';
import { BriefingResponse } from './dto/briefing.response';
import { ChatRequestDto, ConversationIdParams } from './dto/chat-request.dto';
import {
  ChatMessageResponse,
  ChatResponse,
  ConversationListResponse,
  ConversationResponse,
} from './dto/chat.response';
import { ConversationsQuery } from './dto/conversations.query';
import { ChatOutcome, ChatService } from './chat.service';
import { ConversationsService, ConversationSummary } from './conversations.service';
import { streamAnswer, wantsEventStream } from './sse-stream';
import { StreamSlotGuard } from './stream-slot.guard';

const SSE_DESCRIPTION =
  'With `Accept: text/event-stream` the answer streams as Server-Sent Events: `event: delta` with `{"text": "..."}` ' +
  'chunks as the answer is written, then `event: sources` with the sources array, then `event: done` with the same ' +
  'body as the JSON answer. A failure after the stream started ends it with `event: error` and `{"detail": "..."}`.';

@ApiTags('assistant')
@Controller('assistant')
export class AssistantController {
  constructor(
    private readonly chats: ChatService,
    private readonly conversations: ConversationsService,
    private readonly briefings: BriefingService,
  ) {}

  @Post('chat')
  @HttpCode(HttpStatus.OK)
  @ApiOperation({
    summary: 'Ask the assistant; answers are grounded in tool results over your own data',
    description: `Read-only: the assistant never records or changes anything. ${SSE_DESCRIPTION}`,
  })
  @ApiProduces('application/json', 'text/event-stream')
  @ApiOkResponse({ type: ChatResponse })
  @ApiNotFoundResponse({ description: '`Conversation not found`: unknown, or another user’s' })
  @ApiTooManyRequestsResponse({
    description:
      '`Too many chat messages: at most <n> per minute, try again later` (per user); with `Accept: text/event-stream`, ' +
      '`Too many open chat streams: at most <n> per user, try again later` or `Too many open chat streams, try again ' +
      'later` (ASSISTANT_STREAMS_PER_USER, ASSISTANT_STREAMS_TOTAL). See Retry-After',
  })
  @UseGuards(StreamSlotGuard)
  async chat(
    @CurrentUser() user: AuthUser,
    @Body() body: ChatRequestDto,
    @Headers('accept') accept: string | undefined,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<ChatResponse | void> {
    const turn = await this.chats.start(user.id, body.message, body.conversation_id ?? undefined);
    if (!wantsEventStream(accept)) return toChatResponse(await turn.run());
    await streamAnswer(request, reply, async (onDelta) => toChatResponse(await turn.run(onDelta)));
  }

  @Get('conversations')
  @ApiOperation({ summary: 'Your conversations, newest activity first' })
  @ApiOkResponse({ type: ConversationListResponse })
  async list(
    @CurrentUser() user: AuthUser,
    @Query() query: ConversationsQuery,
  ): Promise<ConversationListResponse> {
    return {
      conversations: (await this.conversations.list(user.id, query.limit, query.skip)).map(toSummary),
    };
  }

  @Get('conversations/:id')
  @ApiOperation({ summary: 'One conversation with its messages in order' })
  @ApiOkResponse({ type: ConversationResponse })
  @ApiNotFoundResponse({ description: '`Conversation not found`: unknown, or another user’s' })
  async get(
    @CurrentUser() user: AuthUser,
    @Param() params: ConversationIdParams,
  ): Promise<ConversationResponse> {
    const conversation = await this.conversations.get(user.id, params.id);
    return { ...toSummary(conversation), messages: conversation.messages.map(ChatMessageResponse.from) };
  }

  @Delete('conversations/:id')
  @HttpCode(HttpStatus.NO_CONTENT)
  @ApiOperation({ summary: 'Delete a conversation and its messages' })
  @ApiNoContentResponse({ description: 'Deleted' })
  @ApiNotFoundResponse({ description: '`Conversation not found`: unknown, or another user’s' })
  async delete(@CurrentUser() user: AuthUser, @Param() params: ConversationIdParams): Promise<void> {
    await this.conversations.delete(user.id, params.id);
  }

  @Get('briefing')
  @ApiOperation({
    summary: 'Your daily briefing',
    description:
      'The last session of your portfolio and its movers, the watchlist, news with sentiment, your sectors, risk ' +
      'against your tolerance and drift from an equal-weight plan; ordered by your information-source priorities and ' +
      'worded after your explanation style, analysis depth and experience level (beginner defaults without preferences).',
  })
  @ApiOkResponse({ type: BriefingResponse })
  async briefing(@CurrentUser() user: AuthUser): Promise<BriefingResponse> {
    return BriefingResponse.from(await this.briefings.briefing(user.id));
  }
}

function toChatResponse(outcome: ChatOutcome): ChatResponse {
  return {
    conversation_id: outcome.conversationId,
    message: ChatMessageResponse.from(outcome.message),
    suggestions: outcome.suggestions,
  };
}

function toSummary(conversation: ConversationSummary) {
  return {
    id: conversation.id,
    title: conversation.title,
    created_at: conversation.createdAt.toISOString(),
    updated_at: conversation.updatedAt.toISOString(),
  };
}
