'use client';

import { useEffect, useState } from 'react';
import { formatDateTime } from './format';

const short = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric' });
const shortWithYear = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', year: 'numeric' });
const words = new Intl.RelativeTimeFormat('en-US', { numeric: 'auto' });

/** "now", "5m", "3h", "2d", then the date; and the same in words for screen readers. */
export const describeAge = (iso: string, now: number) => {
  const at = new Date(iso);
  const seconds = Math.max(0, Math.round((now - at.getTime()) / 1000));
  if (seconds < 45) return { short: 'now', long: 'just now' };
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return { short: `${minutes}m`, long: words.format(-minutes, 'minute') };
  const hours = Math.round(minutes / 60);
  if (hours < 24) return { short: `${hours}h`, long: words.format(-hours, 'hour') };
  const days = Math.round(hours / 24);
  if (days < 7) return { short: `${days}d`, long: words.format(-days, 'day') };
  const date = (at.getFullYear() === new Date(now).getFullYear() ? short : shortWithYear).format(at);
  return { short: date, long: date };
};

/** A relative time that keeps itself current (once a minute). */
export const RelativeTime = ({ iso, className }: { iso: string; className?: string }) => {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const t = setInterval(() => setNow(Date.now()), 60_000);
    return () => clearInterval(t);
  }, []);
  const age = describeAge(iso, now);
  return (
    <time dateTime={iso} title={formatDateTime(iso)} className={className}>
      <span aria-hidden="true">{age.short}</span>
      <span className="sr-only">{age.long}</span>
    </time>
  );
};
