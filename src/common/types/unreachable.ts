/**
 * The default branch of a switch that covers every member of a union: it does not compile while a
 * member is unhandled, and throws if a value from outside the type arrives at run time anyway.
 */
export function unreachable(value: never): never {
  throw new Error(`Unexpected value: ${String(value)}`);
}
