/**
 * Maps a vendor's sector or industry label (Yahoo "Consumer Cyclical", Alpha Vantage
 * "LIFE SCIENCES", Finnhub "Banking") onto the spec's market sectors; null when unrecognised.
 */
const SECTOR_KEYWORDS: [RegExp, string][] = [
  [/real estate|reit/, 'real_estate'],
  [/communication|telecom|media|entertainment/, 'telecommunications'],
  [
    /consumer (cyclical|discretionary)|retail|automobile|hotel|restaurant|leisure|apparel|textile/,
    'consumer_discretionary',
  ],
  [/consumer (defensive|staples)|beverage|food|tobacco|household/, 'consumer_staples'],
  [/health|pharma|biotech|life science|medical/, 'healthcare'],
  [/financ|bank|insurance|capital market/, 'finance'],
  [/technology|software|semiconductor|electronic|internet|computer|^it$/, 'technology'],
  [/energy|oil|gas/, 'energy'],
  [/utilit/, 'utilities'],
  [/material|chemical|metal|mining|paper|packaging|construction material/, 'materials'],
  [
    /industrial|machinery|aerospace|defen[cs]e|airline|transport|logistic|trading|manufactur|construction/,
    'industrials',
  ],
];

export function mapVendorSector(label: string | null | undefined): string | null {
  if (!label) return null;
  const normalized = label.trim().toLowerCase();
  return SECTOR_KEYWORDS.find(([pattern]) => pattern.test(normalized))?.[1] ?? null;
}
