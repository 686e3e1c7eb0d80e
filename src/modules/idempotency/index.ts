export { Idempotent } from './idempotent.decorator';
