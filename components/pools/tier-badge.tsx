import { Badge, type TBadgeTone } from '@/components/ui/badge';
import type { TPoolTier } from '@/lib/client/queries/pools';

const TONES: Record<TPoolTier, TBadgeTone> = { S: 'warn', A: 'accent', B: 'neutral', C: 'neutral' };

/** A pool's tier, S (the best-rated managers) to C. */
export const TierBadge = ({ tier }: { tier: TPoolTier }) => (
  <Badge tone={TONES[tier]} title={`Tier ${tier} manager`}>
    Tier {tier}
  </Badge>
);
