import { createHash } from 'node:crypto';
import { prefersHtml } from '../news-item-page.interceptor';
import { NEWS_ITEM_PAGE_CSP, newsItemPage } from './news-item.page';

describe('newsItemPage', () => {
  const item = {
    title: 'AT&T <script>alert(1)</script> "quoted"',
    description: "It's <b>bold</b> & done",
    url: 'https://invest.example.com/api/v1/news/items/x',
    source: 'Market <Replay> Wire',
    publishedAt: '2026-11-20T21:05:00.000Z"><script>',
    sentiment: 'positive' as const,
    sentimentScore: 0.9641,
  };

  it('escapes every value it shows', () => {
    const sut = newsItemPage(item);
    expect(sut).toContain('<title>AT&amp;T &lt;script&gt;alert(1)&lt;/script&gt; &quot;quoted&quot;</title>');
    expect(sut).toContain('<p>It&#39;s &lt;b&gt;bold&lt;/b&gt; &amp; done</p>');
    expect(sut).toContain('Market &lt;Replay&gt; Wire');
    expect(sut).toContain('datetime="2026-11-20T21:05:00.000Z&quot;&gt;&lt;script&gt;"');
    expect(sut).toContain('sentiment positive (0.964)');
    expect(sut.match(/<script/g)).toBeNull();
  });

  it("allows the page's own style by its hash and nothing else", () => {
    const style = /<style>(.*)<\/style>/.exec(newsItemPage(item))![1];
    const hash = createHash('sha256').update(style).digest('base64');
    expect(NEWS_ITEM_PAGE_CSP).toBe(
      `default-src 'none'; style-src 'sha256-${hash}'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`,
    );
  });
});

describe('prefersHtml', () => {
  it.each([
    ['text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8', true],
    ['text/html', true],
    ['application/json', false],
    ['application/json, text/html', false],
    ['*/*', false],
    [undefined, false],
  ])('%s → %s', (accept, expected) => {
    expect(prefersHtml(accept)).toBe(expected);
  });
});
