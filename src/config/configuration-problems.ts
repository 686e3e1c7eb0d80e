import { configNamespaces } from './index';

const HEADING = 'Invalid environment configuration:';

/**
 * Every bad variable of every namespace, one line each. Loaded one by one inside Nest, the
 * namespaces would stop the boot at the first bad one, with a stack trace.
 */
export function configurationProblems(namespaces: (() => unknown)[] = configNamespaces): string[] {
  const problems = namespaces.flatMap((load) => {
    try {
      load();
      return [];
    } catch (error) {
      if (!(error instanceof Error) || !error.message.startsWith(HEADING)) throw error;
      return error.message
        .slice(HEADING.length)
        .split('\n')
        .map((line) => line.replace(/^\s*-?\s*/, '').trim())
        .filter(Boolean);
    }
  });
  // A variable several namespaces read (PORT) is reported once, by the first.
  const seen = new Set<string>();
  return problems.filter((problem) => {
    const variable = /^(\w+)=/.exec(problem)?.[1] ?? problem;
    if (seen.has(variable)) return false;
    seen.add(variable);
    return true;
  });
}

export function describeProblems(problems: string[]): string {
  return [HEADING, ...problems.map((problem) => `  - ${problem}`)].join('\n');
}
