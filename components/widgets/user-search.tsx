'use client';

import Link from 'next/link';
import { useId, useState } from 'react';
import { Card, CardDescription, CardTitle } from '@/components/ui/card';
import { Notice } from '@/components/ui/error-state';
import { formatCount } from '@/components/ui/format';
import { SearchIcon } from '@/components/ui/icons';
import { Input } from '@/components/ui/input';
import { Skeleton } from '@/components/ui/skeleton';
import { UserIdentity } from '@/components/ui/user-identity';
import { describeError } from '@/lib/client/queries/errors';
import { useUserSearch } from '@/lib/client/queries/users';
import { profileHref } from '@/lib/users/links';

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
                <Link href={profileHref(u)} className="flex items-center gap-3 rounded-xl p-2 transition-colors hover:bg-elevated">
                  <UserIdentity user={u} className="flex-1" />
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
