import { FormEvent, useState } from 'react';
import { chatEvents } from '@investment-assistant/client';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, ApiError, unwrap } from '../api';
import { QueryStatus } from '../components/Status';
import { SourceChip, sourceChips } from '../answer-sources';
import { Link } from '../router';

interface Turn {
  role: 'user' | 'assistant';
  text: string;
  sources?: SourceChip[];
}

const CONVERSATIONS_KEY = ['conversations'];

/**
 * A chat whose answers stream in as they are written (Server-Sent Events read with fetch), beside
 * the earlier conversations: open one to go on with it, or delete it.
 */
export function AssistantPage() {
  const queryClient = useQueryClient();
  const [turns, setTurns] = useState<Turn[]>([]);
  const [conversationId, setConversationId] = useState<string | null>(null);
  const [message, setMessage] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [suggestions, setSuggestions] = useState<string[]>([]);

  const send = async (event: FormEvent, asked = message) => {
    event.preventDefault();
    const text = asked.trim();
    if (!text || busy) return;
    setBusy(true);
    setError(null);
    setTurns((previous) => [...previous, { role: 'user', text }, { role: 'assistant', text: '' }]);
    const appendToAnswer = (update: (turn: Turn) => Turn) =>
      setTurns((previous) => [...previous.slice(0, -1), update(previous[previous.length - 1])]);
    try {
      const { response, error: refusal } = await api.POST('/api/v1/assistant/chat', {
        body: { message: text, conversation_id: conversationId },
        headers: { Accept: 'text/event-stream' },
        parseAs: 'stream',
      });
      if (!response.ok) await unwrap(Promise.resolve({ response, error: refusal }));
      setMessage('');
      for await (const streamed of chatEvents(response)) {
        if (streamed.event === 'delta')
          appendToAnswer((turn) => ({ ...turn, text: turn.text + streamed.data.text }));
        if (streamed.event === 'done') {
          setConversationId(streamed.data.conversation_id);
          setSuggestions(streamed.data.suggestions);
          appendToAnswer((turn) => ({
            ...turn,
            text: streamed.data.message.content,
            sources: sourceChips(streamed.data.message.sources),
          }));
          void queryClient.invalidateQueries({ queryKey: CONVERSATIONS_KEY });
        }
        if (streamed.event === 'error') setError(streamed.data.detail);
      }
    } catch (failure) {
      setTurns((previous) => previous.slice(0, -2));
      setError(failure instanceof ApiError ? failure.message : 'The service cannot be reached.');
    } finally {
      setBusy(false);
    }
  };

  const open = async (id: string) => {
    setError(null);
    try {
      const conversation = await unwrap(
        api.GET('/api/v1/assistant/conversations/{id}', { params: { path: { id } } }),
      );
      setConversationId(conversation.id);
      setSuggestions([]);
      setTurns(
        conversation.messages.map((stored) => ({
          role: stored.role,
          text: stored.content,
          sources: sourceChips(stored.sources),
        })),
      );
    } catch (failure) {
      setError(failure instanceof ApiError ? failure.message : 'The service cannot be reached.');
    }
  };
  const startOver = () => {
    setConversationId(null);
    setTurns([]);
    setSuggestions([]);
    setError(null);
  };

  return (
    <>
      <h1>Assistant</h1>
      <div className="assistant-layout">
        <Conversations
          current={conversationId}
          onOpen={(id) => void open(id)}
          onNew={startOver}
          onDeleted={(id) => id === conversationId && startOver()}
        />
        <section className="card chat" aria-label="Conversation">
          <ol className="turns" aria-live="polite" aria-busy={busy}>
            {turns.map((turn, index) => (
              <li key={index} className={turn.role}>
                <span className="visually-hidden">{turn.role === 'user' ? 'You:' : 'Assistant:'}</span>
                <p>{turn.text || '…'}</p>
                {turn.sources && turn.sources.length > 0 && (
                  <ul className="chips" aria-label="Sources">
                    {turn.sources.map((source) => (
                      <li key={source.label}>
                        {source.to ? <Link to={source.to}>{source.label}</Link> : source.label}
                      </li>
                    ))}
                  </ul>
                )}
              </li>
            ))}
          </ol>
          {turns.length === 0 && <p className="hint">Ask about your portfolio, a stock or the news.</p>}
          {error && (
            <p role="alert" className="error">
              {error}
            </p>
          )}
          {suggestions.length > 0 && !busy && (
            <ul className="suggestions" aria-label="Suggested questions">
              {suggestions.map((suggestion) => (
                <li key={suggestion}>
                  <button
                    type="button"
                    className="secondary"
                    onClick={(event) => void send(event, suggestion)}
                  >
                    {suggestion}
                  </button>
                </li>
              ))}
            </ul>
          )}
          <form onSubmit={send} className="chat-form">
            <label htmlFor="chat-message" className="visually-hidden">
              Message
            </label>
            <input
              id="chat-message"
              value={message}
              onChange={(event) => setMessage(event.target.value)}
              placeholder="How is my portfolio doing?"
              autoComplete="off"
            />
            <button type="submit" disabled={busy}>
              Send
            </button>
          </form>
        </section>
      </div>
    </>
  );
}

/** The earlier conversations, newest activity first. */
function Conversations({
  current,
  onOpen,
  onNew,
  onDeleted,
}: {
  current: string | null;
  onOpen: (id: string) => void;
  onNew: () => void;
  onDeleted: (id: string) => void;
}) {
  const queryClient = useQueryClient();
  const conversations = useQuery({
    queryKey: CONVERSATIONS_KEY,
    queryFn: () => unwrap(api.GET('/api/v1/assistant/conversations')),
  });
  const remove = useMutation({
    mutationFn: (id: string) =>
      unwrap(api.DELETE('/api/v1/assistant/conversations/{id}', { params: { path: { id } } })),
    onSuccess: (_, id) => {
      onDeleted(id);
      return queryClient.invalidateQueries({ queryKey: CONVERSATIONS_KEY });
    },
  });
  return (
    <section className="card" aria-labelledby="conversations-heading">
      <h2 id="conversations-heading">Conversations</h2>
      <button type="button" className="secondary" onClick={onNew}>
        New conversation
      </button>
      {remove.error && (
        <p role="alert" className="error">
          {remove.error.message}
        </p>
      )}
      {!conversations.data ? (
        <QueryStatus error={conversations.error} retry={() => void conversations.refetch()} />
      ) : conversations.data.conversations.length === 0 ? (
        <p className="hint">None yet.</p>
      ) : (
        <ul className="conversations" aria-label="Earlier conversations">
          {conversations.data.conversations.map((conversation) => (
            <li key={conversation.id} aria-current={conversation.id === current ? 'true' : undefined}>
              <button type="button" className="link" onClick={() => onOpen(conversation.id)}>
                {conversation.title}
              </button>
              <small>{new Date(conversation.updated_at).toLocaleString('en-US')}</small>
              <button
                type="button"
                className="secondary"
                onClick={() => remove.mutate(conversation.id)}
                aria-label={`Delete conversation: ${conversation.title}`}
              >
                Delete
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
