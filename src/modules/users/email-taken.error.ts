import { RuleViolationError } from '../../common/errors/domain-errors';

/** Another account already has this email (whatever its case); the unique index decides. */
export class EmailTakenError extends RuleViolationError {}
