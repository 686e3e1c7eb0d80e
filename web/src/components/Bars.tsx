import { formatWeight } from '../format';

/**
 * Horizontal bars of weights in percent, written as a list so it reads the same without the
 * picture: each row says its label and its share.
 */
export function WeightBars({ items, label }: { items: { name: string; weight: number }[]; label: string }) {
  return (
    <ul className="bars" aria-label={label}>
      {items.map((item) => (
        <li key={item.name}>
          <span className="bar-label">{item.name}</span>
          <span className="bar-track" aria-hidden="true">
            <span className="bar-fill" style={{ width: `${Math.max(0, Math.min(100, item.weight))}%` }} />
          </span>
          <span className="bar-value">{formatWeight(item.weight)}</span>
        </li>
      ))}
    </ul>
  );
}
