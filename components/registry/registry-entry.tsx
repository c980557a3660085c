import Link from 'next/link';
import type { ReactNode } from 'react';
import { Avatar } from '@/components/ui/avatar';
import { Badge, type TBadgeTone } from '@/components/ui/badge';
import { formatCount } from '@/components/ui/format';
import { LEVEL_LABELS } from '@/lib/client/queries/reputation';
import { REGISTRY_TYPE_LABELS, isLocalUrl, type TRegistryEntry, type TRegistryType } from '@/lib/client/queries/registry';
import { profileHref } from '@/lib/users/links';

const TYPE_TONES: Record<TRegistryType, TBadgeTone> = { user: 'neutral', actor: 'accent', agent: 'up', app: 'warn' };

/** The entry's name as a link: a profile of this site, or an app's own site (a new tab, no referrer). */
const EntryLink = ({ entry }: { entry: TRegistryEntry }) => {
  const className = 'truncate text-base font-semibold text-ink hover:underline';
  return isLocalUrl(entry.url) ? (
    <Link href={entry.url} className={className}>
      {entry.name}
    </Link>
  ) : (
    <a href={entry.url} target="_blank" rel="noopener noreferrer" className={className}>
      {entry.name}
      <span className="sr-only"> (opens in a new tab)</span>
    </a>
  );
};

const Detail = ({ label, children }: { label: string; children: ReactNode }) => (
  <div className="flex min-w-0 flex-wrap items-baseline gap-x-2 gap-y-0.5">
    <dt className="shrink-0 text-ink-faint">{label}</dt>
    <dd className="min-w-0 text-ink-muted">{children}</dd>
  </div>
);

/**
 * One registry entry: avatar, name and type, reputation (not for apps), what it can do, and how to
 * reach it: an agent's A2A endpoint and methods, an app's site and owner.
 */
export const RegistryEntry = ({ entry }: { entry: TRegistryEntry }) => (
  <article aria-label={`${entry.name}, ${REGISTRY_TYPE_LABELS[entry.type]}`} className="flex gap-4 rounded-2xl border border-line bg-surface p-4 sm:p-5">
    <Avatar src={entry.profileImageUrl} name={entry.name} />
    <div className="flex min-w-0 flex-1 flex-col gap-2">
      <div className="flex flex-wrap items-start justify-between gap-x-4 gap-y-1">
        <div className="min-w-0">
          <div className="flex min-w-0 flex-wrap items-center gap-2">
            <EntryLink entry={entry} />
            <Badge tone={TYPE_TONES[entry.type]}>{REGISTRY_TYPE_LABELS[entry.type]}</Badge>
            {entry.onChain?.registered && (
              <Badge tone="neutral" title={entry.onChain.txHash ?? undefined}>
                On-chain{entry.onChain.tokenId !== null ? ` #${entry.onChain.tokenId}` : ''}
              </Badge>
            )}
          </div>
          {entry.username && <p className="truncate text-xs text-ink-muted">@{entry.username}</p>}
        </div>
        {entry.reputation && (
          <p className="shrink-0 text-sm text-ink-muted">
            <span className="text-xs text-ink-faint">Reputation </span>
            <span className="font-semibold text-ink tabular-nums">{formatCount(entry.reputation.score)}</span>
            <span aria-hidden="true"> · </span>
            <span className="sr-only">, </span>
            {LEVEL_LABELS[entry.reputation.level]}
          </p>
        )}
      </div>
      {entry.description && <p className="line-clamp-2 text-sm text-ink-muted">{entry.description}</p>}
      {entry.capabilities.length > 0 && (
        <ul aria-label="Capabilities" className="flex flex-wrap gap-1.5">
          {entry.capabilities.map((c) => (
            <li key={c} className="rounded-md border border-line bg-elevated px-1.5 py-0.5 font-mono text-[11px] text-ink-muted">
              {c}
            </li>
          ))}
        </ul>
      )}
      {(entry.a2a || entry.type === 'app') && (
        <dl className="flex flex-col gap-1 text-xs">
          {entry.a2a && (
            <>
              <Detail label="A2A endpoint">
                <span className="font-mono break-all">{entry.a2a.endpoint}</span>
              </Detail>
              <Detail label="Methods">
                {entry.a2a.methods.length === 0 ? (
                  'none listed'
                ) : (
                  <details className="inline">
                    <summary className="cursor-pointer">
                      {formatCount(entry.a2a.methods.length)} {entry.a2a.methods.length === 1 ? 'method' : 'methods'}
                    </summary>
                    <span className="mt-1 block font-mono break-all">{entry.a2a.methods.join(', ')}</span>
                  </details>
                )}
              </Detail>
              <Detail label="Agent card">
                <a href={entry.a2a.agentCard} className="font-mono break-all text-accent hover:underline">
                  {entry.a2a.agentCard}
                </a>
              </Detail>
            </>
          )}
          {entry.type === 'app' && (
            <>
              <Detail label="Site">
                <a href={entry.url} target="_blank" rel="noopener noreferrer" className="break-all text-accent hover:underline">
                  {entry.url}
                </a>
              </Detail>
              {entry.owner && (
                <Detail label="Owner">
                  <Link href={profileHref(entry.owner)} className="text-accent hover:underline">
                    @{entry.owner.username}
                  </Link>
                </Detail>
              )}
            </>
          )}
        </dl>
      )}
    </div>
  </article>
);
