import { NotFoundError } from '../../common/errors/domain-errors';
import { ErrorDetail } from '../../common/errors/error-details';

/** The provider does not know the symbol (404 `Stock X not found`). */
export class StockNotFoundError extends NotFoundError {
  constructor(readonly symbol: string) {
    super(ErrorDetail.stockNotFound(symbol));
  }
}
