import type { Preferences } from '../../../preferences';
import { wordSection } from '../../briefing/briefing-wording';
import type { AnswerSource } from '../../tools/answer-source';
import { GLOSSARY, GlossaryTerm } from './glossary-terms';

const BY_NAME: [string, GlossaryTerm][] = GLOSSARY.flatMap((entry) =>
  entry.names.map((name): [string, GlossaryTerm] => [name, entry]),
).sort((a, b) => b[0].length - a[0].length);

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\/&-]/g, '\\$&');
/** Every phrasing in one pattern, longest first, so that at each position the longest one matches. */
const ANY_NAME = new RegExp(
  `(?<![\\w&/])(?:${BY_NAME.map(([name]) => escape(name)).join('|')})(?![\\w&/])`,
  'gi',
);
const TERM_OF = new Map<string, string>();
for (const [name, entry] of BY_NAME) if (!TERM_OF.has(name)) TERM_OF.set(name, entry.term);

/** The glossary term a question names (the longest phrasing wins), or null. */
export function findTerm(text: string): string | null {
  let best: string | null = null;
  for (const match of text.matchAll(ANY_NAME)) {
    if (best === null || match[0].length > best.length) best = match[0].toLowerCase();
  }
  return best === null ? null : (TERM_OF.get(best) ?? null);
}

/** The glossary entry a term or one of its phrasings names (any case), or null. */
export function glossaryEntry(name: string): GlossaryTerm | null {
  const wanted = name.trim().toLowerCase();
  return (
    GLOSSARY.find((entry) => entry.names.includes(wanted)) ??
    GLOSSARY.find((entry) => entry.term === findTerm(name)) ??
    null
  );
}

/**
 * A term explained in the user's explanation style and analysis depth (beginner defaults without
 * preferences: key points, simple), with the user's own figure when there is one.
 */
export async function explainTerm(
  term: string,
  preferences: Preferences | null,
  detail: boolean,
  figureFor: (key: string) => Promise<{ text: string; sources: AnswerSource[] } | null>,
): Promise<{ lines: string[]; sources: AnswerSource[] }> {
  const entry = GLOSSARY.find((candidate) => candidate.term === term)!;
  const figure = entry.figure ? await figureFor(entry.figure).catch(() => null) : null;
  const depth = detail ? 'detailed' : (preferences?.analysis_depth ?? 'simple');
  const points = [
    ...(depth === 'simple' ? [] : [entry.more]),
    ...(figure ? [`For you: ${figure.text}.`] : []),
  ];
  const text = wordSection(
    { conclusion: `${entry.term} is ${entry.short}`, points },
    { style: preferences?.explanation_style ?? 'key-points', depth, beginner: false },
  );
  return {
    lines: text.split('\n'),
    sources: [{ type: 'glossary', term: entry.term }, ...(figure?.sources ?? [])],
  };
}
