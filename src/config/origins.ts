import { ValidateBy } from 'class-validator';

/**
 * CORS_ORIGINS: `*`, or a comma-separated list of origins (`scheme://host[:port]`). A browser sends
 * exactly an origin, so an entry copied from an address bar (`http://localhost:5173/`) is reduced
 * to its origin; anything that could never equal an origin (a path, a query, a fragment,
 * credentials, a wildcard inside a list or a host) stops the boot, naming the entry.
 */
export function parseOrigins(raw: string | undefined): string[] | true | false {
  if (!raw || raw.trim() === '') return false;
  if (raw.trim() === '*') return true;
  return [...new Set(entriesOf(raw).map((entry) => new URL(entry).origin))];
}

/** Why each entry of the list is not an origin; empty when the whole value is usable. */
export function originListProblems(raw: string): string[] {
  if (raw.trim() === '*') return [];
  return entriesOf(raw).flatMap((entry) => {
    const problem = originProblem(entry);
    return problem ? [`"${entry}" ${problem}`] : [];
  });
}

function entriesOf(raw: string): string[] {
  return raw
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
}

function originProblem(entry: string): string | null {
  if (entry.includes('*')) return 'has a wildcard: `*` is allowed only alone, for every origin';
  let url: URL;
  try {
    url = new URL(entry);
  } catch {
    return 'is not a URL: give scheme://host[:port]';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'is not an http(s) origin';
  const origin = url.origin;
  if (url.username || url.password) return `has credentials: give ${origin}`;
  if (url.pathname !== '/') return `has a path: give ${origin}`;
  if (url.search || entry.includes('?')) return `has a query: give ${origin}`;
  if (url.hash || entry.includes('#')) return `has a fragment: give ${origin}`;
  return null;
}

/** The class-validator check of the variable, one line naming every bad entry. */
export const IsOriginList = (): PropertyDecorator =>
  ValidateBy({
    name: 'isOriginList',
    validator: {
      validate: (value: unknown) => typeof value !== 'string' || originListProblems(value).length === 0,
      defaultMessage: (args) =>
        `$property must be \`*\` or comma-separated origins: ${originListProblems(String(args?.value)).join('; ')}`,
    },
  });
