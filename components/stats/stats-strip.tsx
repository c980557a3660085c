'use client';

import { Skeleton } from '@/components/ui/skeleton';
import { formatCompactMoney, formatCount } from '@/components/ui/format';
import { useStats } from '@/lib/client/queries/stats';

/** The public stats strip on the home page: how alive the world is right now. Hidden when the figures cannot load. */
export const StatsStrip = () => {
  const stats = useStats();
  if (stats.isError) return null;
  const s = stats.data;
  const items = s
    ? [
        { label: 'Players', value: formatCount(s.players) },
        { label: 'Active today', value: formatCount(s.activeUsers24h) },
        { label: 'Open questions', value: formatCount(s.openQuestions) },
        { label: 'Prediction volume, 24 h', value: formatCompactMoney(Number(s.predictionVolume24h)) },
        { label: 'Perps open interest', value: formatCompactMoney(Number(s.perpsOpenInterest)) },
        { label: 'Pool assets', value: formatCompactMoney(Number(s.poolAssets)) },
      ]
    : [];
  return (
    <section aria-label="The world right now" className="mb-4">
      <dl className="grid grid-cols-2 gap-2 sm:grid-cols-3 lg:grid-cols-6">
        {s
          ? items.map((i) => (
              <div key={i.label} className="rounded-lg border border-line bg-surface px-3 py-2">
                <dt className="text-xs text-ink-muted">{i.label}</dt>
                <dd className="text-base font-semibold tabular-nums text-ink">{i.value}</dd>
              </div>
            ))
          : Array.from({ length: 6 }, (_, i) => <Skeleton key={i} className="h-14 w-full" />)}
      </dl>
    </section>
  );
};
