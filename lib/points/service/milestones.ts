/** Paying milestones: each once per user (its award key), inside the caller's transaction. */
import 'server-only';
import type { Tx } from '@/db/client';
import { applyPointsChange } from '../ledger';
import { MILESTONES, milestoneAwardKey, type TMilestone } from '../milestones';

/** Pays `milestone` to the user unless already paid; answers the points paid (0 when already paid). */
export async function awardMilestone(tx: Tx, userId: string, milestone: TMilestone): Promise<number> {
  const paid = await applyPointsChange(tx, {
    userId,
    amount: MILESTONES[milestone].points,
    reason: `milestone:${milestone}`,
    awardKey: milestoneAwardKey(milestone),
    metadata: { milestone },
  });
  return paid ? paid.amount : 0;
}

/** Pays each milestone in order; answers the ones paid now. */
export async function awardMilestones(tx: Tx, userId: string, milestones: TMilestone[]) {
  const paid: { milestone: TMilestone; points: number }[] = [];
  for (const m of milestones) {
    const points = await awardMilestone(tx, userId, m);
    if (points > 0) paid.push({ milestone: m, points });
  }
  return paid;
}
