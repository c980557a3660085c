import Link from 'next/link';
import { Badge } from '@/components/ui/badge';
import { cn } from '@/components/ui/cn';
import { formatDateTime } from '@/components/ui/format';
import { profileHref } from '@/lib/users/links';
import { kindLabel, kindTone, ROLE_LABELS, roleTone } from './format';
import type { TStoryBeat } from './types';

const linkClass = 'rounded font-medium text-ink hover:text-accent hover:underline focus-visible:ring-2 focus-visible:ring-accent focus-visible:outline-none';

/**
 * One beat on a vertical timeline: when, its kind, the headline and body, who said it (a link to
 * their profile), and, once the story is published (`isRevealed`), the teller's role and whether
 * the beat pointed to the truth.
 */
export const BeatItem = ({ beat, isRevealed = false }: { beat: TStoryBeat; isRevealed?: boolean }) => (
  <li data-testid="story-beat" className="relative border-l border-line pb-5 pl-5 last:pb-0">
    <span
      aria-hidden="true"
      className={cn(
        'absolute top-1.5 -left-[5px] size-2.5 rounded-full border-2 border-surface',
        isRevealed && beat.truthful === false ? 'bg-down' : isRevealed && beat.truthful ? 'bg-up' : 'bg-accent',
      )}
    />
    <div className="flex flex-wrap items-center gap-x-2 gap-y-1 text-xs text-ink-muted">
      <time dateTime={beat.at}>{formatDateTime(beat.at)}</time>
      <Badge tone={kindTone(beat.kind)}>{kindLabel(beat.kind)}</Badge>
      {beat.direction && (
        <span>
          points to <span className={beat.direction === 'YES' ? 'font-semibold text-up' : 'font-semibold text-down'}>{beat.direction}</span>
        </span>
      )}
      {isRevealed && beat.role && <Badge tone={roleTone(beat.role)}>{ROLE_LABELS[beat.role]}</Badge>}
      {isRevealed && beat.truthful !== null && (
        <Badge tone={beat.truthful ? 'up' : 'down'}>{beat.truthful ? 'Pointed to the truth' : 'Misleading'}</Badge>
      )}
    </div>
    <p className="mt-1 text-sm font-semibold text-ink">{beat.headline}</p>
    {beat.body && <p className="mt-0.5 text-sm leading-relaxed break-words text-ink-muted">{beat.body}</p>}
    {beat.actor && (
      <p className="mt-1 text-xs text-ink-muted">
        <span className="sr-only">Said by </span>
        <span aria-hidden="true">— </span>
        <Link href={profileHref(beat.actor)} className={linkClass}>
          {beat.actor.displayName || beat.actor.username}
        </Link>{' '}
        @{beat.actor.username}
      </p>
    )}
  </li>
);

/** Beats as an ordered timeline, in the order given. */
export const BeatTimeline = ({ beats, isRevealed, label }: { beats: readonly TStoryBeat[]; isRevealed?: boolean; label: string }) => (
  <ol aria-label={label} className="ml-1.5 flex flex-col">
    {beats.map((b) => (
      <BeatItem key={b.seq} beat={b} isRevealed={isRevealed} />
    ))}
  </ol>
);
