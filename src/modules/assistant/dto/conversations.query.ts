import { LimitField, SkipField } from '../../../common/validation/query-fields';

export class ConversationsQuery {
  @SkipField({ default: 0, documentAsInteger: true })
  skip: number = 0;

  @LimitField({ default: 20, max: 100, documentAsInteger: true })
  limit: number = 20;
}
