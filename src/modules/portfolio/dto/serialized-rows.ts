/**
 * The JSON text of a frozen list's response rows, kept while the list itself is: the lots and
 * realized routes answer thousands of rows from a cached list, and mapping, rounding and
 * serializing them again was most of a repeated read's CPU. Keyed by the list's identity, so an
 * entry goes with the cache entry that holds the list.
 */
export class SerializedRows<Item extends object, Row> {
  private readonly byList = new WeakMap<readonly Item[], string>();

  constructor(private readonly toRow: (item: Item) => Row) {}

  /** JSON.stringify of the list's rows; serialized once per list when the list is frozen. */
  of(list: readonly Item[]): string {
    const kept = this.byList.get(list);
    if (kept !== undefined) return kept;
    const json = JSON.stringify(list.map((item) => this.toRow(item)));
    if (Object.isFrozen(list)) this.byList.set(list, json);
    return json;
  }
}
