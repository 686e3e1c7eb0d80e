/** Upper case without surrounding spaces; class shares written with a dot (BRK-B → BRK.B). */
export function normalizeSymbol(raw: string): string {
  const symbol = raw.trim().toUpperCase();
  return /^[A-Z]+-[A-Z]$/.test(symbol) ? symbol.replace('-', '.') : symbol;
}

/**
 * A batch's `symbols` parameter as the requested list: entries trimmed and upper-cased, empty ones
 * dropped, duplicates listed once (first occurrence wins).
 */
export function parseSymbolList(raw: string): string[] {
  return [
    ...new Set(
      raw
        .split(',')
        .map((entry) => entry.trim().toUpperCase())
        .filter(Boolean),
    ),
  ];
}
