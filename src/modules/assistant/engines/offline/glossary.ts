import type { Preferences } from '../../../preferences';
import { wordSection } from '../../briefing/briefing-wording';
import type { AnswerSource } from '../../tools/answer-source';
import { GLOSSARY, GlossaryTerm } from './glossary-terms';

const BY_NAME: [string, GlossaryTerm][] = GLOSSARY.flatMap((entry) =>
  entry.names.map((name): [string, GlossaryTerm] => [name, entry]),
).sort((a, b) => b[0].length - a[0].length);

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\/&-]/g, '\\$&');
const PATTERNS: [RegExp, GlossaryTerm][] = BY_NAME.map(([name, entry]) => [
  new RegExp(`(?<![\\w&/])${escape(name)}(?![\\w&/])`, 'i'),
  entry,
]);

/** The glossary term a question names (the longest phrasing wins), or null. */
export function findTerm(text: string): string | null {
  for (const [pattern, entry] of PATTERNS) if (pattern.test(text)) return entry.term;
  return null;
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
