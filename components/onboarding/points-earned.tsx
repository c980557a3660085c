'use client';

import { Card, CardTitle } from '@/components/ui/card';
import { CheckIcon, SparkIcon } from '@/components/ui/icons';
import type { TMilestonePaid } from '@/lib/client/queries/onboarding';
import { usePoints } from '@/lib/client/queries/points';

/** The milestones the wizard's submit paid, by their checklist labels (from the points history). */
export const PointsEarned = ({ userId, awarded }: { userId: string; awarded: readonly TMilestonePaid[] }) => {
  const points = usePoints(userId);
  if (awarded.length === 0) return null;
  const labelOf = (m: TMilestonePaid) =>
    points.data?.milestones.find((row) => row.milestone === m.milestone)?.label ?? m.milestone.replace(/_/g, ' ');
  const total = awarded.reduce((n, m) => n + m.points, 0);
  return (
    <Card aria-labelledby="points-earned-title" className="border-accent/30 bg-accent-soft">
      <div className="flex items-center gap-2">
        <SparkIcon className="size-5 text-accent" />
        <CardTitle id="points-earned-title">You earned {total.toLocaleString('en-US')} points</CardTitle>
      </div>
      <ul className="mt-3 flex flex-col gap-2" aria-label="Points earned">
        {awarded.map((m) => (
          <li key={m.milestone} className="flex items-center justify-between gap-3 text-sm">
            <span className="inline-flex items-center gap-2 text-ink">
              <CheckIcon className="size-4 text-up" />
              {labelOf(m)}
            </span>
            <span className="font-medium text-up tabular-nums">+{m.points} points</span>
          </li>
        ))}
      </ul>
    </Card>
  );
};
