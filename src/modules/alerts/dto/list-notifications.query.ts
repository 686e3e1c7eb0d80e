import { BooleanQueryField, LimitField, SkipField } from '../../../common/validation/query-fields';

export class ListNotificationsQuery {
  @BooleanQueryField({ description: 'Only notifications not read yet' })
  unread_only: boolean = false;

  @SkipField({ default: 0, documentAsInteger: true })
  skip: number = 0;

  @LimitField({ default: 50, max: 200, documentAsInteger: true })
  limit: number = 50;
}
