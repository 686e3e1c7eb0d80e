import { useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../api';
import { QueryStatus } from '../components/Status';
import { Link } from '../router';

const BRIEFING_KEY = ['briefing'];
const fetchBriefing = () => unwrap(api.GET('/api/v1/assistant/briefing'));

/**
 * The daily briefing, as the service delivers it by webhook or email at the chosen time: its
 * headline, then its sections in the order of the information-source priorities.
 */
export function BriefingPage() {
  const briefing = useQuery({ queryKey: BRIEFING_KEY, queryFn: fetchBriefing });
  if (!briefing.data) return <QueryStatus error={briefing.error} retry={() => void briefing.refetch()} />;
  const { headline, sections, disclaimer, as_of: asOf } = briefing.data;
  return (
    <>
      <h1>Daily briefing</h1>
      <p className="hint">
        As of {new Date(asOf).toLocaleString('en-US')}, meant for your {briefing.data.for} summary (
        <Link to="/settings">change when it is delivered</Link>).
      </p>
      <p className="headline" data-testid="briefing-headline">
        {headline}
      </p>
      {sections.map((section) => (
        <section className="card" key={section.kind} aria-labelledby={`briefing-${section.kind}`}>
          <h2 id={`briefing-${section.kind}`}>{section.title}</h2>
          <p>{section.text}</p>
        </section>
      ))}
      <p className="hint">{disclaimer}</p>
    </>
  );
}

/** The briefing's headline with a link to the whole of it (the dashboard shows it). */
export function BriefingHeadline() {
  const briefing = useQuery({ queryKey: BRIEFING_KEY, queryFn: fetchBriefing });
  if (!briefing.data) return null;
  return (
    <section className="card" aria-labelledby="briefing-headline-heading">
      <h2 id="briefing-headline-heading">Today’s briefing</h2>
      <p data-testid="dashboard-briefing">{briefing.data.headline}</p>
      <Link to="/briefing">Read the briefing</Link>
    </section>
  );
}
