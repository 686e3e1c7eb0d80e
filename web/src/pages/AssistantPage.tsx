import { FormEvent, useState } from 'react';
import { chatEvents } from '@investment-assistant/client';
import { api, ApiError, unwrap } from '../api';

interface Turn {
  role: 'user' | 'assistant';
  text: string;
  sources?: string[];
}

/** A chat whose answers stream in as they are written (Server-Sent Events read with fetch). */
export function AssistantPage() {
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
      const { response } = await api.POST('/api/v1/assistant/chat', {
        body: { message: text, conversation_id: conversationId },
        headers: { Accept: 'text/event-stream' },
        parseAs: 'stream',
      });
      if (!response.ok) await unwrap(Promise.resolve({ response, error: await response.json() }));
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
            sources: streamed.data.message.sources.map((source) => source.type.replace(/_/g, ' ')),
          }));
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

  return (
    <>
      <h1>Assistant</h1>
      <section className="card chat" aria-label="Conversation">
        <ol className="turns" aria-live="polite" aria-busy={busy}>
          {turns.map((turn, index) => (
            <li key={index} className={turn.role}>
              <span className="visually-hidden">{turn.role === 'user' ? 'You:' : 'Assistant:'}</span>
              <p>{turn.text || '…'}</p>
              {turn.sources && turn.sources.length > 0 && (
                <ul className="chips" aria-label="Sources">
                  {[...new Set(turn.sources)].map((source) => (
                    <li key={source}>{source}</li>
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
                <button type="button" className="secondary" onClick={(event) => void send(event, suggestion)}>
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
    </>
  );
}
