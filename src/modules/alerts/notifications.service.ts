import { Injectable } from '@nestjs/common';
import { NotFoundError } from '../../common/errors/domain-errors';
import { ErrorDetail } from '../../common/errors/error-details';
import { Clock } from '../../common/time/clock';
import { Notification, NotificationPage } from './notification';
import { NotificationsRepository } from './notifications.repository';

/** A user's inbox: the notifications the rules wrote, newest first, and their read state. */
@Injectable()
export class NotificationsService {
  constructor(
    private readonly notifications: NotificationsRepository,
    private readonly clock: Clock,
  ) {}

  page(
    userId: number,
    query: { unreadOnly: boolean; skip: number; limit: number },
  ): Promise<NotificationPage> {
    return this.notifications.page(userId, query.unreadOnly, query.skip, query.limit);
  }

  async markRead(userId: number, id: number): Promise<Notification> {
    const read = await this.notifications.markRead(userId, id, this.clock.now());
    if (!read) throw new NotFoundError(ErrorDetail.notificationNotFound);
    return read;
  }

  markAllRead(userId: number): Promise<number> {
    return this.notifications.markAllRead(userId, this.clock.now());
  }

  latestId(userId: number): Promise<number> {
    return this.notifications.latestId(userId);
  }

  /** The user's notifications after `afterId`, oldest first: what a resuming stream missed. */
  since(userId: number, afterId: number, limit: number): Promise<Notification[]> {
    return this.notifications.after(userId, afterId, limit);
  }
}
