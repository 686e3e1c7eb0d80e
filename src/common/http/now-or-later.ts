/**
 * `map` applied to a value that is here now, or to a promise's value once it settles: a route
 * answering from memory returns its body without a promise (Nest awaits whatever a handler returns).
 */
export function nowOrLater<T, R>(value: T | Promise<T>, map: (value: T) => R): R | Promise<R> {
  return value instanceof Promise ? value.then(map) : map(value);
}
