import { Module } from '@nestjs/common';
import { ChatService } from '../../src/modules/assistant/chat.service';
import { AssistantModule } from '../../src/modules/assistant/assistant.module';
import { ConversationsService } from '../../src/modules/assistant/conversations.service';
import { UsersModule } from '../../src/modules/users/users.module';
import { newLedger, newPreferences, newUser } from './builders';
import { refusal } from './domain-outcomes';
import { bootMedium, MediumModule } from './medium-module';

@Module({ imports: [AssistantModule, UsersModule] })
class AssistantWithUsersModule {}

/**
 * Multi-turn dialogues with the offline engine, through ChatService: the conversation and its
 * messages stored by the real repositories, the user's ledger and preferences read by their modules.
 */
describe('the offline assistant in conversation (medium)', () => {
  let medium: MediumModule;

  beforeAll(async () => {
    medium = await bootMedium(AssistantWithUsersModule);
  });
  afterAll(() => medium.close());

  /** One turn answered and stored: the answer's content, sources and the conversation's id. */
  const say = async (user: { id: number }, message: string, conversationId?: string) => {
    const outcome = await (await medium.get(ChatService).start(user.id, message, conversationId)).run();
    return { conversationId: outcome.conversationId, ...outcome.message };
  };
  const stored = (user: { id: number }, conversationId: string) =>
    medium.get(ConversationsService).get(user.id, conversationId);

  it('keeps the turns of a conversation in order, each question before its answer', async () => {
    const user = await newUser(medium);
    const first = await say(user, 'What can you do?');
    const again = await say(user, 'Price of MSFT', first.conversationId);
    expect(again.conversationId).toBe(first.conversationId);

    const conversation = await stored(user, first.conversationId);
    expect(conversation.title).toBe('What can you do?');
    expect(conversation.messages.map(({ role, content }) => [role, content.split('\n')[0]])).toEqual([
      ['user', 'What can you do?'],
      ['assistant', 'I can tell you:'],
      ['user', 'Price of MSFT'],
      ['assistant', expect.stringContaining('(MSFT) is at $')],
    ]);
    expect(conversation.messages[3]).toMatchObject({ content: again.content, sources: again.sources });
  });

  it('resolves a company, then "it", then "why?" against the stored conversation and the ledger', async () => {
    const user = await newUser(medium);
    await newLedger(medium, user, [
      { symbol: 'MSFT', side: 'buy', quantity: 8, price: 410, fees: 1, executed_at: '2025-01-07' },
      { symbol: 'AAPL', side: 'buy', quantity: 20, price: 150, fees: 1, executed_at: '2025-01-06' },
    ]);
    const apple = await say(user, 'How is Apple doing?');
    expect(apple.sources[0]).toMatchObject({ type: 'quote', symbol: 'AAPL' });
    const microsoft = await say(user, 'and Microsoft?', apple.conversationId);
    expect(microsoft.sources[0]).toMatchObject({ type: 'quote', symbol: 'MSFT' });
    const shares = await say(user, 'how many shares of it do I have?', apple.conversationId);
    expect(shares.content).toContain('You hold 8 shares of Microsoft Corp. (MSFT)');
    const why = await say(user, 'why?', apple.conversationId);
    expect(why.content).toContain('Why: your cost basis is what you paid');
    expect((await stored(user, apple.conversationId)).messages).toHaveLength(8);
  });

  it('answers from the preferences it reads, and without them from the beginner defaults', async () => {
    const [withPreferences, without] = [await newUser(medium), await newUser(medium)];
    await newPreferences(medium, withPreferences, {
      experience_level: 'advanced',
      explanation_style: 'bottom-line-first',
    });
    const question = 'What is a P/E ratio?';
    const tailored = await say(withPreferences, question);
    const plain = await say(without, question);
    expect(tailored.content).not.toEqual(plain.content);
    // deterministic: the same question without preferences is answered the same way again
    expect((await say(without, question)).content).toEqual(plain.content);
  });

  it("refuses to continue another user's conversation", async () => {
    const [owner, other] = [await newUser(medium), await newUser(medium)];
    const { conversationId } = await say(owner, 'What can you do?');
    await expect(say(other, 'Price of MSFT', conversationId)).rejects.toEqual(
      refusal('not-found', 'Conversation not found'),
    );
    expect((await stored(owner, conversationId)).messages).toHaveLength(2);
  });
});
