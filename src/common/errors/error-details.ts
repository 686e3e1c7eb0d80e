/** Fastify's default `maxParamLength`, kept. */
export const MAX_PATH_PARAMETER_LENGTH = 100;

/**
 * The catalogue of every `detail` string the service sends. Strings from part 7 of the spec are
 * copied to the letter; the rest are ours, phrased in the same voice.
 */
export const ErrorDetail = {
  emailAlreadyRegistered: 'Email already registered',
  emailInUseByAnotherUser: 'Email already in use by another user',
  inactiveUser: 'Inactive user',
  incorrectCredentials: 'Incorrect username or password',
  invalidRefreshToken: 'Invalid refresh token',
  couldNotValidateCredentials: 'Could not validate credentials',
  adminAccessRequired: 'Forbidden - Admin access required',
  userNotFound: 'User not found',
  cannotDeleteOwnAccount: 'Cannot delete your own account',
  cannotDeactivateOwnAccount: 'Cannot deactivate your own account',
  cannotDeleteLastSuperuser: 'Cannot delete the last active superuser',
  cannotDeactivateLastSuperuser: 'Cannot deactivate the last active superuser',
  cannotDemoteLastSuperuser: 'Cannot remove superuser status from the last active superuser',
  tooManyFailedLogins: 'Too many failed login attempts, try again later',
  tooManyRequests: 'Too many requests, try again later',
  incorrectPassword: 'Incorrect password',
  sessionNotFound: 'Session not found',
  preferencesNotFound: 'User preferences not found',
  preferencesNotFoundToUpdate: 'User preferences not found to update',
  preferencesAlreadyExist: 'User preferences already exist',
  invalidExperienceLevel: 'Invalid experience level. Must be: beginner, intermediate, or advanced',
  watchlistTooLong: 'Watchlist cannot exceed 50 symbols',
  invalidTickerSymbols: (symbols: string[]) => `Invalid ticker symbols: ${symbols.join(', ')}`,
  duplicateTickerSymbols: (symbols: string[]) => `Duplicate ticker symbols: ${symbols.join(', ')}`,
  stockNotFound: (symbol: string) => `Stock ${symbol} not found`,
  stockDataRetrievalFailed: (symbol: string) => `Failed to retrieve stock data for ${symbol}`,
  batchRetrievalFailed: 'Failed to retrieve batch stock data',
  summaryRetrievalFailed: 'Failed to retrieve market summary',
  tooManyBatchSymbols: 'Maximum 10 symbols allowed per batch request',
  priceHistoryRetrievalFailed: (symbol: string) => `Failed to retrieve price history for ${symbol}`,
  symbolSearchFailed: 'Failed to search symbols',
  newsRetrievalFailed: (variable: string) => `Failed to retrieve news. Check the ${variable} configuration`,
  newsSearchFailed: (variable: string) => `Failed to search news. Check the ${variable} configuration`,
  newsItemNotFound: 'News item not found',
  socialSentimentNotConfigured: 'Social sentiment is not available. Set FINNHUB_API_KEY to enable it',
  socialSentimentRetrievalFailed:
    'Failed to retrieve social sentiment. Check the FINNHUB_API_KEY configuration',
  notFound: 'Not Found',
  requestBodyTooLarge: 'Request body too large',
  badRequest: 'Bad Request',
  requestTimeout: 'Request timeout',
  requestHeadersTooLarge: 'Request header fields too large',
  malformedUrlEncoding: 'Malformed percent-encoding in the URL path',
  pathParameterTooLong: `URL path parameter too long (at most ${MAX_PATH_PARAMETER_LENGTH} characters)`,
  unsupportedMediaType: (contentType: string) => `Unsupported media type: ${contentType}`,
  insufficientQuantityToSell: (symbol: string) => `Insufficient quantity of ${symbol} to sell`,
  transactionNotFound: 'Transaction not found',
  accountNotFound: 'Account not found',
  accountNameTaken: (name: string) => `An account named ${name} already exists`,
  defaultAccountCannotBeDeleted:
    'The default account cannot be deleted: make another account the default first',
  accountHasTransactions: (count: number) =>
    `The account holds ${count} transactions: name the account to move them to in move_to`,
  transferLegNotEditable:
    'A transfer between accounts cannot be edited one leg at a time: delete it (both legs go) and record it again',
  transferToSameAccount: 'to_account_id must name another account than from_account_id',
  accountCannotMoveToItself: 'move_to must name another account',
  accountMoveWouldBreakLedger: (reason: string) => `Cannot move the transactions: ${reason}`,
  alertNotFound: 'Alert not found',
  notificationNotFound: 'Notification not found',
  unsubscribeLinkNotFound: 'Unsubscribe link not found',
  tooManyNotificationStreamsForUser: (perUser: number) =>
    `Too many open notification streams: at most ${perUser} per user, try again later`,
  tooManyNotificationStreams: 'Too many open notification streams, try again later',
  dividendWithoutPosition: (symbol: string) => `No position in ${symbol} was held before this dividend`,
  splitWithoutPosition: (symbol: string) => `No position in ${symbol} is held at the time of this split`,
  feeWithoutPosition: (symbol: string) => `No position in ${symbol} was held before this fee`,
  splitBelowSmallestQuantity: (symbol: string) =>
    `This split would leave less than 0.00000001 shares of ${symbol}, the smallest quantity the ledger holds`,
  transactionDeletionWouldShrinkBelowSmallest: (symbol: string) =>
    `Cannot delete this transaction: a later split of ${symbol} would leave less than 0.00000001 shares`,
  insufficientCash: (kind: string) => `Insufficient cash for this ${kind}`,
  transactionDeletionWouldLeaveNoPosition: (kind: string, symbol: string) =>
    `Cannot delete this transaction: a later ${kind} of ${symbol} would have no position`,
  transactionDeletionWouldOverdraw: 'Cannot delete this transaction: the cash balance would fall below zero',
  ledgerFull: (limit: number) =>
    `The ledger would exceed ${limit} transactions, the most one user may hold (see docs/input-limits.md)`,
  transactionDeletionWouldOversell: (symbol: string) =>
    `Cannot delete this transaction: a later sell of ${symbol} would exceed the quantity held`,
  tradeOutsideLedgerLimits: (quantity: number, symbol: string) =>
    `A trade of ${quantity} ${symbol} is outside the ledger limits (quantity 0.00000001 to 1000000000, ` +
    'price 0.00000001 to 1000000 USD, fees 0 to 1000000000 USD; see docs/input-limits.md)',
  realizedPnlOutOfRange: (symbol: string) =>
    `The realized P&L of a sell of ${symbol} would exceed the ledger range (±9,999,999,999,999,999.99999999)`,
  lotsOnlyOnSells: 'Only a sell can name the lots it closes',
  lotNamedTwice: (lotId: number) => `Lot ${lotId} is named more than once`,
  lotsMustSumToQuantity: (quantity: number) =>
    `The lots' quantities must add up to the ${quantity} shares sold`,
  lotNotOpen: (lotId: number, symbol: string) =>
    `Lot ${lotId} is not an open ${symbol} lot at the time of the sell`,
  lotTooSmall: (lotId: number, open: number, symbol: string) =>
    `Lot ${lotId} has only ${open} ${symbol} open at the time of the sell`,
  transactionDeletionWouldBreakLotSelection: (sellId: number, lotId: number) =>
    `Cannot delete this transaction: the sell ${sellId} names lot ${lotId}, which would not stay open for it`,
  transactionWouldBreakLotSelection: (sellId: number, lotId: number) =>
    `Cannot record this transaction: the sell ${sellId} names lot ${lotId}, which would not stay open for it`,
  conversationNotFound: 'Conversation not found',
  tooManyChatTurns: (perMinute: number) =>
    `Too many chat messages: at most ${perMinute} per minute, try again later`,
  tooManyOpenStreamsForUser: (perUser: number) =>
    `Too many open chat streams: at most ${perUser} per user, try again later`,
  tooManyOpenStreams: 'Too many open chat streams, try again later',
  internalServerError: 'Internal server error occurred',
  serviceUnavailable: 'Service temporarily unavailable',
} as const;
