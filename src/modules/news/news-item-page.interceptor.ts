import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { map, Observable } from 'rxjs';
import { NEWS_ITEM_PAGE_CSP, newsItemPage } from './dto/news-item.page';
import { NewsItemResponse } from './dto/news.response';

/**
 * A browser that follows a story's `url` asks for HTML (`Accept: text/html,…`) and gets the story
 * as a page; every other client (asking for JSON, for any type, or saying nothing) gets the JSON item.
 */
export function prefersHtml(accept: string | undefined): boolean {
  const types = (accept ?? '').toLowerCase();
  return types.includes('text/html') && !types.includes('application/json');
}

/** Answers the news item route as an HTML page when the client prefers HTML. */
@Injectable()
export class NewsItemPageInterceptor implements NestInterceptor<NewsItemResponse, NewsItemResponse | string> {
  intercept(
    context: ExecutionContext,
    next: CallHandler<NewsItemResponse>,
  ): Observable<NewsItemResponse | string> {
    const http = context.switchToHttp();
    const reply = http.getResponse<FastifyReply>();
    reply.header('vary', 'Accept');
    if (!prefersHtml(http.getRequest<FastifyRequest>().headers.accept)) return next.handle();
    return next.handle().pipe(
      map((item) => {
        reply.header('content-type', 'text/html; charset=utf-8');
        reply.header('content-security-policy', NEWS_ITEM_PAGE_CSP);
        return newsItemPage(item);
      }),
    );
  }
}
