// What other modules may use of the replay: its service and module, the calendar that places the
// history on today's dates, and the shapes the service returns.
export { ReplayModule } from './replay.module';
export { ReplayService } from './replay.service';
export type { ReplayMarket, SessionMove, SessionMoves } from './replay-market';
export type { ReplayStockEntry } from './replay-data.format';
export {
  dateOfTradingDay,
  isTradingDate,
  previousTradingDay,
  REPLAY_EPOCH,
  tradingDayOnOrBefore,
} from './replay-calendar';
