/** Reading dates and the question itself out of how people write. */

const LONG_MESSAGE = 160;
const ASKING =
  /\b(?:what|how|which|when|why|is|are|am|do|does|did|can|could|should|would|will|tell me|show me|give me|explain|list|any)\b/i;

/**
 * The question of a long message: the last sentence that asks something (a question mark, else
 * a question word), so that a paragraph of background does not drown it.
 */
export function focusQuestion(text: string): string {
  if (text.length <= LONG_MESSAGE) return text;
  const sentences = text
    .split(/(?<=[.!?])\s+|\n+/)
    .map((sentence) => sentence.trim())
    .filter(Boolean);
  const questions = sentences.filter((sentence) => sentence.includes('?'));
  const asking = questions.length > 0 ? questions : sentences.filter((sentence) => ASKING.test(sentence));
  if (asking.length === 0) return text;
  const last = asking[asking.length - 1];
  // "… my Apple shares. How many do I have?" keeps the sentence before for what "it" refers to.
  const index = sentences.indexOf(last);
  return /\b(?:it|them|they|those|that|this|these)\b/i.test(last) && index > 0
    ? `${sentences[index - 1]} ${last}`
    : last;
}

const MONTHS = [
  'january',
  'february',
  'march',
  'april',
  'may',
  'june',
  'july',
  'august',
  'september',
  'october',
  'november',
  'december',
];

/** A calendar year named by the question, relative to today's New York date (YYYY-MM-DD). */
export function yearIn(text: string, today: string): number | null {
  const year = Number(today.slice(0, 4));
  if (/\b(?:year before last|two years ago)\b/i.test(text)) return year - 2;
  if (/\b(?:last|previous|prior) (?:calendar |tax )?year\b|\blast yr\b/i.test(text)) return year - 1;
  const named = /\b(?:in|for|during|of) (20\d\d)\b/i.exec(text) ?? /\b(20\d\d)\b/.exec(text);
  if (named) return Number(named[1]);
  if (/\b(?:this year|this yr|ytd|year[- ]to[- ]date|so far this year)\b/i.test(text)) return year;
  return null;
}

const pad = (value: number) => String(value).padStart(2, '0');
const lastDay = (year: number, month: number) => new Date(Date.UTC(year, month, 0)).getUTCDate();
const monthName = (month: number) => MONTHS[month - 1][0].toUpperCase() + MONTHS[month - 1].slice(1);

function daysBefore(today: string, days: number): string {
  const date = new Date(`${today}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() - days);
  return date.toISOString().slice(0, 10);
}

/** The dates a question about transactions covers, inclusive, with how to say them. */
export function calendarRange(text: string, today: string): { from: string; to: string; label: string } {
  const year = Number(today.slice(0, 4));
  const month = Number(today.slice(5, 7));
  const monthRange = (y: number, m: number) => ({
    from: `${y}-${pad(m)}-01`,
    to: `${y}-${pad(m)}-${pad(lastDay(y, m))}`,
    label: `in ${monthName(m)} ${y}`,
  });
  if (/\b(?:last|previous|past) month\b|\ba month ago\b/i.test(text)) {
    return month === 1 ? monthRange(year - 1, 12) : monthRange(year, month - 1);
  }
  if (/\bthis month\b/i.test(text))
    return { from: `${year}-${pad(month)}-01`, to: today, label: 'this month' };
  if (/\b(?:last|past|this) (?:7 days|week)\b|\bthis week\b/i.test(text)) {
    return { from: daysBefore(today, 7), to: today, label: 'in the last 7 days' };
  }
  if (/\byesterday\b/i.test(text)) {
    const day = daysBefore(today, 1);
    return { from: day, to: day, label: 'yesterday' };
  }
  if (/\btoday\b/i.test(text)) return { from: today, to: today, label: 'today' };
  const named = yearIn(text, today);
  const monthMatch = new RegExp(`\\b(${MONTHS.join('|')})\\b`, 'i').exec(text);
  if (monthMatch) {
    const m = MONTHS.indexOf(monthMatch[1].toLowerCase()) + 1;
    const y = named ?? (m > month ? year - 1 : year);
    return monthRange(y, m);
  }
  if (named !== null) {
    return named === year
      ? { from: `${year}-01-01`, to: today, label: 'this year' }
      : { from: `${named}-01-01`, to: `${named}-12-31`, label: `in ${named}` };
  }
  return { from: '1970-01-01', to: today, label: 'so far' };
}
