'use client';

import Link from 'next/link';
import { useState } from 'react';
import { SignInPrompt } from '@/components/auth/sign-in-prompt';
import { Button } from '@/components/ui/button';
import { EmptyState } from '@/components/ui/empty-state';
import { ErrorState, Notice } from '@/components/ui/error-state';
import { formatDate } from '@/components/ui/format';
import { UserIcon } from '@/components/ui/icons';
import { Skeleton } from '@/components/ui/skeleton';
import { UserIdentity } from '@/components/ui/user-identity';
import { describeError } from '@/lib/client/queries/errors';
import {
  MODERATION_ERROR_MESSAGES,
  MODERATION_PAGE_SIZE,
  offsetAfterRemoval,
  useBlocks,
  useMutes,
  useToggleBlock,
  useToggleMute,
} from '@/lib/client/queries/moderation';
import { useSession } from '@/lib/client/queries/users';
import { profileHref } from '@/lib/users/links';
import { Pager } from './pager';

type TKind = 'blocks' | 'mutes';
type TRow = { id: string; createdAt: string; reason: string | null; person: { id: string; username: string; displayName: string; profileImageUrl: string | null } };

const WORDS: Record<TKind, { title: string; undo: string; done: (h: string) => string; since: string; emptyTitle: string; empty: string; signIn: string }> = {
  blocks: {
    title: 'Blocked players',
    undo: 'Unblock',
    done: (h) => `You unblocked ${h}. You can see each other's posts again; follows are not restored.`,
    since: 'Blocked',
    emptyTitle: 'You have not blocked anyone',
    empty: "Block someone from the ··· menu on their profile, a post or a comment: neither of you sees the other's posts, and neither can reach the other.",
    signIn: 'Sign in to see the players you blocked.',
  },
  mutes: {
    title: 'Muted players',
    undo: 'Unmute',
    done: (h) => `You unmuted ${h}. Their posts show in your feeds again.`,
    since: 'Muted',
    emptyTitle: 'You have not muted anyone',
    empty: 'Mute someone from the ··· menu on their profile or a post: their posts and notifications stop reaching you, and they are never told.',
    signIn: 'Sign in to see the players you muted.',
  },
};

/**
 * The signed-in user's blocks or mutes, newest first, 20 a page, each with its undo (Unblock or
 * Unmute). Loading, empty, error and signed-out states; undoing the last row of a page steps back
 * a page.
 */
export const PeopleSettings = ({ kind }: { kind: TKind }) => {
  const session = useSession();
  if (session.isPending) return <ListSkeleton label={`Loading ${WORDS[kind].title.toLowerCase()}`} />;
  if (session.isSignedOut) return <SignInPrompt description={WORDS[kind].signIn} />;
  if (!session.user) return <ErrorState message={describeError(session.failure)} onRetry={() => session.refetch()} isRetrying={session.isFetching} />;
  return kind === 'blocks' ? <BlockedList /> : <MutedList />;
};

const ListSkeleton = ({ label }: { label: string }) => (
  <div role="status" aria-label={label} className="flex flex-col gap-2">
    {[0, 1, 2].map((i) => (
      <Skeleton key={i} className="h-16 w-full rounded-xl" />
    ))}
  </div>
);

const BlockedList = () => {
  const [offset, setOffset] = useState(0);
  const query = useBlocks(offset);
  const toggle = useToggleBlock();
  const rows = query.data?.blocks.map((b) => ({ id: b.id, createdAt: b.createdAt, reason: b.reason, person: b.blocked }));
  return (
    <PeopleList
      kind="blocks"
      query={query}
      rows={rows}
      pagination={query.data?.pagination}
      onPage={setOffset}
      onUndo={(person, onDone) => toggle.mutateAsync({ userId: person.id, block: false }).then(onDone)}
      onUndone={(left) => setOffset((o) => offsetAfterRemoval(o, left, MODERATION_PAGE_SIZE))}
    />
  );
};

const MutedList = () => {
  const [offset, setOffset] = useState(0);
  const query = useMutes(offset);
  const toggle = useToggleMute();
  const rows = query.data?.mutes.map((m) => ({ id: m.id, createdAt: m.createdAt, reason: m.reason, person: m.muted }));
  return (
    <PeopleList
      kind="mutes"
      query={query}
      rows={rows}
      pagination={query.data?.pagination}
      onPage={setOffset}
      onUndo={(person, onDone) => toggle.mutateAsync({ userId: person.id, mute: false }).then(onDone)}
      onUndone={(left) => setOffset((o) => offsetAfterRemoval(o, left, MODERATION_PAGE_SIZE))}
    />
  );
};

const PeopleList = ({
  kind,
  query,
  rows,
  pagination,
  onPage,
  onUndo,
  onUndone,
}: {
  kind: TKind;
  query: { isPending: boolean; isError: boolean; error: unknown; isFetching: boolean; isPlaceholderData: boolean; refetch: () => unknown };
  rows: TRow[] | undefined;
  pagination: { limit: number; offset: number; total: number } | undefined;
  onPage: (offset: number) => void;
  onUndo: (person: TRow['person'], onDone: () => void) => Promise<unknown>;
  onUndone: (rowsLeft: number) => void;
}) => {
  const words = WORDS[kind];
  const [pendingId, setPendingId] = useState<string | null>(null);
  const [message, setMessage] = useState<{ tone: 'success' | 'error'; text: string } | null>(null);

  const undo = (row: TRow) => {
    setPendingId(row.person.id);
    setMessage(null);
    onUndo(row.person, () => {
      setMessage({ tone: 'success', text: words.done(`@${row.person.username}`) });
      onUndone((rows?.length ?? 1) - 1);
    })
      .catch((e: unknown) => setMessage({ tone: 'error', text: describeError(e, MODERATION_ERROR_MESSAGES) }))
      .finally(() => setPendingId(null));
  };

  const notice = message && <Notice tone={message.tone}>{message.text}</Notice>;
  if (query.isPending) return <ListSkeleton label={`Loading ${words.title.toLowerCase()}`} />;
  if (query.isError || !rows || !pagination) {
    return <ErrorState message={describeError(query.error)} onRetry={() => query.refetch()} isRetrying={query.isFetching} />;
  }
  if (rows.length === 0) {
    return (
      <div className="flex flex-col gap-4">
        {notice}
        <EmptyState icon={<UserIcon />} title={words.emptyTitle} description={words.empty} />
      </div>
    );
  }
  return (
    <div className="flex flex-col gap-4">
      {notice}
      <ul aria-label={words.title} aria-busy={query.isPlaceholderData || undefined} className="flex flex-col divide-y divide-line rounded-2xl border border-line bg-surface">
        {rows.map((row) => (
          <li key={row.id} className="flex flex-wrap items-center gap-3 px-4 py-3">
            <Link href={profileHref(row.person)} className="flex min-w-0 flex-1 items-center gap-3 rounded-lg hover:underline">
              <UserIdentity user={row.person} />
            </Link>
            <span className="flex flex-col text-right text-xs text-ink-faint">
              <span>
                {words.since} {formatDate(row.createdAt)}
              </span>
              {row.reason && <span className="max-w-56 truncate text-ink-muted" title={row.reason}>{row.reason}</span>}
            </span>
            <Button
              variant="secondary"
              size="sm"
              isLoading={pendingId === row.person.id}
              disabled={pendingId !== null && pendingId !== row.person.id}
              onClick={() => undo(row)}
              aria-label={`${words.undo} @${row.person.username}`}
            >
              {words.undo}
            </Button>
          </li>
        ))}
      </ul>
      <Pager label={`${words.title} pages`} pagination={pagination} shown={rows.length} onChange={onPage} isBusy={query.isPlaceholderData} />
    </div>
  );
};
