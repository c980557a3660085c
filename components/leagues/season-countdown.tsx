'use client';

import { formatCountdown, useGameNow } from '@/lib/client/queries/leagues';

/**
 * The time left in a season, counted down each second in game time: from the server's `now`
 * (as of `receivedAt`), never from the browser's clock alone.
 */
export const SeasonCountdown = ({ endsAt, serverNow, receivedAt }: { endsAt: string; serverNow: string; receivedAt: number }) => {
  const gameNow = useGameNow(serverNow, receivedAt);
  if (gameNow === null) return <span className="text-ink-faint">…</span>;
  const left = formatCountdown(Date.parse(endsAt) - gameNow);
  if (left.isOver) return <span className="text-ink">Ended: results at the next daily close</span>;
  return (
    <span role="timer" className="font-semibold text-ink tabular-nums" data-testid="season-countdown">
      <span aria-hidden="true">{left.short}</span>
      <span className="sr-only">{left.long}</span>
    </span>
  );
};
