import { createHash } from 'node:crypto';
import { NewsItemResponse } from './news.response';

const PAGE_STYLE =
  'body{font:16px/1.5 system-ui,sans-serif;max-width:40rem;margin:2rem auto;padding:0 1rem;color:#222}' +
  'h1{font-size:1.5rem;line-height:1.25}p.meta{color:#555;font-size:.9rem}';

/**
 * The page's Content-Security-Policy: nothing may load or run, not even from this origin; only its
 * own inline style, by hash. The page holds text only, so a script that got into it could not run.
 */
export const NEWS_ITEM_PAGE_CSP = [
  "default-src 'none'",
  `style-src 'sha256-${createHash('sha256').update(PAGE_STYLE).digest('base64')}'`,
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => ESCAPES[character]);
}

/**
 * A wire story as a small HTML page, for a person who follows its `url` in a browser: the title,
 * the text, the source, the time and the sentiment, every value escaped.
 */
export function newsItemPage(item: NewsItemResponse): string {
  const published = escapeHtml(item.publishedAt);
  const sentiment = `${escapeHtml(item.sentiment)} (${item.sentimentScore.toFixed(3)})`;
  return [
    '<!doctype html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeHtml(item.title)}</title>`,
    `<style>${PAGE_STYLE}</style>`,
    '</head>',
    '<body>',
    '<article>',
    `<h1>${escapeHtml(item.title)}</h1>`,
    `<p class="meta">${escapeHtml(item.source)} · <time datetime="${published}">${published}</time> · sentiment ${sentiment}</p>`,
    `<p>${escapeHtml(item.description)}</p>`,
    '</article>',
    '</body>',
    '</html>',
    '',
  ].join('\n');
}
