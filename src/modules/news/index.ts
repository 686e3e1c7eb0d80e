// What other modules may use of news: the module, its service and the shapes the service returns.
export { NewsModule } from './news.module';
export { NewsService } from './news.service';
export type { ExplainedSentiment, NewsItem, NewsMention, NewsQuery } from './news.types';
export { NewsItemResponse } from './dto/news.response';
