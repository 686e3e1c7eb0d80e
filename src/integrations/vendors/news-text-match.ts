// Keyword matching for providers that cannot search on their side (the wire, Finnhub's feeds):
// case- and accent-insensitive, each term matching the start of a word ("earn" finds "earnings").

/** Every word of `query` starts some word of `text`. A query without words matches nothing. */
export function matchesAllTerms(text: string, query: string): boolean {
  const terms = words(query);
  if (terms.length === 0) return false;
  const haystack = words(text);
  return terms.every((term) => haystack.some((word) => word.startsWith(term)));
}

/** `keywords` is comma-separated alternatives; an alternative matches when all its words do. */
export function matchesKeywords(text: string, keywords: string): boolean {
  return keywordAlternatives(keywords).some((alternative) => matchesAllTerms(text, alternative));
}

export function keywordAlternatives(keywords: string): string[] {
  return keywords
    .split(',')
    .map((alternative) => alternative.trim())
    .filter((alternative) => words(alternative).length > 0);
}

export function words(text: string): string[] {
  return text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
}
