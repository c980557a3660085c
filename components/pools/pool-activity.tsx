import Link from 'next/link';
import { Card, CardTitle } from '@/components/ui/card';
import { cn } from '@/components/ui/cn';
import { formatMoney } from '@/components/ui/format';
import { RelativeTime } from '@/components/ui/relative-time';
import type { TPoolActivity } from '@/lib/client/queries/pools';
import { profileHref } from '@/lib/users/links';

/** Money in (green: deposits, sales, payouts) or out (red: withdrawals, funding, liquidations), or a trade opened. */
const TONES: Record<TPoolActivity['type'], string> = {
  deposit: 'text-up',
  withdraw: 'text-down',
  perp_open: 'text-ink',
  perp_close: 'text-ink',
  pred_buy: 'text-ink',
  pred_sell: 'text-ink',
  pred_payout: 'text-up',
  liquidation: 'text-down',
  funding: 'text-ink-muted',
};

const ActivityItem = ({ item }: { item: TPoolActivity }) => (
  <li className="flex items-center gap-3 border-t border-line py-3 first:border-t-0">
    <div className="min-w-0 flex-1 text-sm">
      <p className="truncate text-ink">
        {item.user ? (
          <>
            <Link href={profileHref(item.user)} className="font-medium hover:underline">
              @{item.user.username}
            </Link>{' '}
            <span className="text-ink-muted">{item.type === 'deposit' ? 'deposited' : item.type === 'withdraw' ? 'withdrew' : item.description.toLowerCase()}</span>
          </>
        ) : (
          item.description
        )}
      </p>
      <p className="text-xs text-ink-faint">
        <RelativeTime iso={item.timestamp} />
      </p>
    </div>
    <span className={cn('shrink-0 text-sm font-medium tabular-nums', TONES[item.type])}>{formatMoney(item.amount)}</span>
  </li>
);

/** The pool's latest deposits, withdrawals and manager trades, newest first. */
export const PoolActivity = ({ activity }: { activity: readonly TPoolActivity[] }) => (
  <Card aria-labelledby="pool-activity-title" className="flex flex-col gap-3">
    <CardTitle id="pool-activity-title">Recent activity</CardTitle>
    {activity.length === 0 ? (
      <p className="text-sm text-ink-muted">Nothing yet: deposits, withdrawals and the manager&apos;s trades will be listed here.</p>
    ) : (
      <ul aria-label="Recent pool activity, newest first">
        {activity.map((a) => (
          <ActivityItem key={`${a.type}:${a.id}`} item={a} />
        ))}
      </ul>
    )}
  </Card>
);
