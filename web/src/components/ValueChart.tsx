import { AreaSeries, ColorType, createChart } from 'lightweight-charts';
import { useEffect, useRef } from 'react';

export interface ValuePoint {
  date: string;
  value: number;
}

/** A line of values by day (lightweight-charts, on a canvas); the caller gives the text alternative. */
export function ValueChart({ points, label }: { points: ValuePoint[]; label: string }) {
  const container = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!container.current) return;
    const chart = createChart(container.current, {
      autoSize: true,
      layout: {
        attributionLogo: false,
        background: { type: ColorType.Solid, color: 'transparent' },
        textColor: '#333',
      },
      rightPriceScale: { borderVisible: false },
      timeScale: { borderVisible: false },
      grid: { vertLines: { visible: false }, horzLines: { color: '#eee' } },
    });
    const series = chart.addSeries(AreaSeries, {
      lineColor: '#1f5fae',
      topColor: 'rgba(31, 95, 174, 0.3)',
      bottomColor: 'rgba(31, 95, 174, 0.02)',
    });
    series.setData(points.map((point) => ({ time: point.date, value: point.value })));
    chart.timeScale().fitContent();
    return () => chart.remove();
  }, [points]);
  return <div className="chart" ref={container} role="img" aria-label={label} />;
}
