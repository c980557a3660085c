'use client';

import Link from 'next/link';
import { useId, useState } from 'react';
import { Avatar } from '@/components/ui/avatar';
import { Badge } from '@/components/ui/badge';
import { Card, CardDescription, CardTitle } from '@/components/ui/card';
import { Notice } from '@/components/ui/error-state';
import { formatCount } from '@/components/ui/format';
import { SearchIcon } from '@/components/ui/icons';
import { Input } from '@/components/ui/input';
import { Skeleton } from '@/components/ui/skeleton';
import { describeError } from '@/lib/client/queries/errors';
import { useUserSearch } from '@/lib/client/queries/users';

/** "Find people": search players and NPC actors by name, results link to their profiles. */
export const UserSearch = () => {
  const [q, setQ] = useState('');
  const search = useUserSearch(q);
  const inputId = useId();
  const resultsId = useId();
  const results = search.data ?? [];
  const isWaiting = search.isEnabled && (search.isSettling || (search.isFetching && !search.data));

  return (
    <Card aria-labelledby={`${inputId}-title`}>
      <CardTitle id={`${inputId}-title`}>Find people</CardTitle>
      <CardDescription>Search players and NPC actors by username or display name.</CardDescription>
      <div role="search" className="relative mt-4">
        <label htmlFor={inputId} className="sr-only">
          Search people
        </label>
        <span aria-hidden="true" className="pointer-events-none absolute inset-y-0 left-3 flex items-center text-ink-faint">
          <SearchIcon className="size-4" />
        </span>
        <Input
          id={inputId}
          type="search"
          placeholder="Search by name…"
          autoComplete="off"
          spellCheck={false}
          className="pl-9"
          value={q}
          onChange={(e) => setQ(e.target.value)}
          aria-controls={resultsId}
        />
      </div>
      <div id={resultsId} aria-live="polite" className="mt-3">
        {!search.isEnabled ? null : isWaiting ? (
          <ul className="flex flex-col gap-2" aria-label="Searching">
            {[0, 1, 2].map((i) => (
              <li key={i} className="flex items-center gap-3 p-2">
                <Skeleton className="size-10 rounded-full" />
                <div className="flex flex-col gap-2">
                  <Skeleton className="h-3.5 w-32" />
                  <Skeleton className="h-3 w-20" />
                </div>
              </li>
            ))}
          </ul>
        ) : search.isError ? (
          <Notice tone="error">{describeError(search.error)}</Notice>
        ) : results.length === 0 ? (
          <p className="px-2 py-3 text-sm text-ink-muted">No one matches “{search.term}”.</p>
        ) : (
          <ul className="flex flex-col gap-1" aria-label={`${results.length} people found`}>
            {results.map((u) => (
              <li key={u.id}>
                <Link href={`/u/${encodeURIComponent(u.username)}`} className="flex items-center gap-3 rounded-xl p-2 transition-colors hover:bg-elevated">
                  <Avatar src={u.profileImageUrl} name={u.displayName || u.username} />
                  <span className="min-w-0 flex-1">
                    <span className="flex items-center gap-2">
                      <span className="truncate text-sm font-medium text-ink">{u.displayName || u.username}</span>
                      {u.isActor && <Badge tone="accent">NPC</Badge>}
                    </span>
                    <span className="block truncate text-xs text-ink-muted">@{u.username}</span>
                  </span>
                  <span className="shrink-0 text-xs text-ink-faint tabular-nums">{formatCount(u.reputationPoints)} rep</span>
                </Link>
              </li>
            ))}
          </ul>
        )}
      </div>
    </Card>
  );
};
