'use client';

import Link from 'next/link';
import type { ReactNode } from 'react';
import { SignInPrompt } from '@/components/auth/sign-in-prompt';
import { Avatar } from '@/components/ui/avatar';
import { Button } from '@/components/ui/button';
import { cn } from '@/components/ui/cn';
import { EmptyState } from '@/components/ui/empty-state';
import { ErrorState, Notice } from '@/components/ui/error-state';
import {
  AlertIcon,
  AtIcon,
  BellIcon,
  ChatIcon,
  CheckIcon,
  HeartIcon,
  MarketsIcon,
  PerpsIcon,
  PointsIcon,
  ReplyIcon,
  RepostIcon,
  UserPlusIcon,
  WalletIcon,
} from '@/components/ui/icons';
import { PageHeader } from '@/components/ui/page-header';
import { RelativeTime } from '@/components/ui/relative-time';
import { Skeleton } from '@/components/ui/skeleton';
import { describeError } from '@/lib/client/queries/errors';
import {
  useMarkNotificationsRead,
  useNotifications,
  type TNotification,
  type TNotificationKind,
  type TNotificationType,
} from '@/lib/client/queries/notifications';
import { useSession } from '@/lib/client/queries/users';
import { profileHref } from '@/lib/users/links';

const TYPES: Record<TNotificationType, { icon: ReactNode; label: string; tone: string }> = {
  comment: { icon: <ChatIcon className="size-4" />, label: 'Comment', tone: 'text-accent bg-accent-soft' },
  reply: { icon: <ReplyIcon className="size-4" />, label: 'Reply', tone: 'text-accent bg-accent-soft' },
  reaction: { icon: <HeartIcon className="size-4" fill="currentColor" />, label: 'Like', tone: 'text-down bg-down-soft' },
  follow: { icon: <UserPlusIcon className="size-4" />, label: 'Follow', tone: 'text-up bg-up-soft' },
  mention: { icon: <AtIcon className="size-4" />, label: 'Mention', tone: 'text-warn bg-warn-soft' },
  share: { icon: <RepostIcon className="size-4" />, label: 'Share', tone: 'text-up bg-up-soft' },
  system: { icon: <BellIcon className="size-4" />, label: 'Announcement', tone: 'text-ink-muted bg-elevated' },
};

type TLook = { icon: ReactNode; label: string; tone: string };

/** Trading notifications (system ones with a kind): their own icon and label. */
const KINDS: Record<TNotificationKind, TLook> = {
  trade: { icon: <MarketsIcon className="size-4" />, label: 'Trade', tone: 'text-accent bg-accent-soft' },
  price_move: { icon: <MarketsIcon className="size-4" />, label: 'Price move', tone: 'text-accent bg-accent-soft' },
  liquidation_warning: { icon: <AlertIcon className="size-4" />, label: 'Liquidation warning', tone: 'text-warn bg-warn-soft' },
  liquidation: { icon: <PerpsIcon className="size-4" />, label: 'Liquidation', tone: 'text-down bg-down-soft' },
  funding: { icon: <WalletIcon className="size-4" />, label: 'Funding', tone: 'text-ink-muted bg-elevated' },
  resolution: { icon: <CheckIcon className="size-4" />, label: 'Resolution', tone: 'text-ink-muted bg-elevated' },
  payout: { icon: <PointsIcon className="size-4" />, label: 'Payout', tone: 'text-up bg-up-soft' },
  order_filled: { icon: <CheckIcon className="size-4" />, label: 'Order filled', tone: 'text-up bg-up-soft' },
  order_expired: { icon: <WalletIcon className="size-4" />, label: 'Order expired', tone: 'text-ink-muted bg-elevated' },
  order_triggered: { icon: <PerpsIcon className="size-4" />, label: 'Order triggered', tone: 'text-accent bg-accent-soft' },
  report_outcome: { icon: <CheckIcon className="size-4" />, label: 'Report outcome', tone: 'text-ink-muted bg-elevated' },
  moderation: { icon: <AlertIcon className="size-4" />, label: 'Moderation', tone: 'text-warn bg-warn-soft' },
  digest: { icon: <BellIcon className="size-4" />, label: 'Daily digest', tone: 'text-accent bg-accent-soft' },
};

/** A chat message's notice: a `system` one from a person, titled "New message from …" or "New message in …" (lib/chats). */
const isChatMessage = (n: TNotification) => n.type === 'system' && !n.kind && !!n.actor && n.title.startsWith('New message');

/** How a notification looks: by its kind when it has one, else by its type. */
const lookOf = (n: TNotification): TLook => {
  if (n.kind) return KINDS[n.kind] ?? TYPES.system;
  if (isChatMessage(n)) return { ...TYPES.comment, label: 'Message' };
  return TYPES[n.type] ?? TYPES.system;
};

/**
 * What a screen reader hears first: what the notification is, then whether it is unread —
 * "Order filled, unread: …", "Direct message from Ada, unread: …", "Like from Bob: …".
 */
export const notificationKindText = (n: TNotification) => {
  const who = n.actor ? n.actor.displayName || `@${n.actor.username}` : null;
  let what: string;
  if (isChatMessage(n)) what = n.title.startsWith('New message in') ? `Group message${who ? ` from ${who}` : ''}` : `Direct message${who ? ` from ${who}` : ''}`;
  else if (n.kind) what = lookOf(n).label;
  else if (n.type === 'system') what = 'Announcement';
  else what = `${lookOf(n).label}${who ? ` from ${who}` : ''}`;
  return `${what}${n.read ? '' : ', unread'}: `;
};

/**
 * Where a notification leads: its own link (a market, a ticker, the portfolio), else the post (at
 * the comment, when there is one), else the actor's profile.
 */
export const notificationHref = (n: TNotification) => {
  if (n.link) return n.link;
  if (n.postId) return `/posts/${encodeURIComponent(n.postId)}${n.commentId ? `#comment-${n.commentId}` : ''}`;
  if (n.actor) return profileHref(n.actor);
  return null;
};

const NotificationRow = ({ n, onOpen }: { n: TNotification; onOpen: (n: TNotification) => void }) => {
  const type = lookOf(n);
  const href = notificationHref(n);
  const body = (
    <>
      <span className="relative shrink-0">
        {n.actor ? (
          <Avatar src={n.actor.profileImageUrl} name={n.actor.displayName || n.actor.username} />
        ) : n.kind ? (
          <span aria-hidden="true" className={cn('flex size-10 items-center justify-center rounded-full [&>svg]:size-5', type.tone)}>
            {type.icon}
          </span>
        ) : (
          <span className="block size-10" />
        )}
        {(n.actor || !n.kind) && (
          <span aria-hidden="true" className={cn('absolute -right-1 -bottom-1 flex size-6 items-center justify-center rounded-full ring-2 ring-surface', type.tone)}>
            {type.icon}
          </span>
        )}
      </span>
      <span className="min-w-0 flex-1">
        <span className="flex items-baseline gap-2">
          <span className={cn('text-sm', n.read ? 'font-medium text-ink' : 'font-semibold text-ink')}>
            <span className="sr-only" data-testid="notification-kind-text">{notificationKindText(n)}</span>
            {n.title}
          </span>
          <RelativeTime iso={n.createdAt} className="ml-auto shrink-0 text-xs text-ink-faint" />
        </span>
        <span className="mt-0.5 line-clamp-2 block text-sm break-words text-ink-muted">{n.message}</span>
      </span>
      {!n.read && <span aria-hidden="true" className="mt-1.5 size-2.5 shrink-0 rounded-full bg-accent" />}
    </>
  );
  const rowClass = cn('flex items-start gap-3 px-4 py-3.5 transition-colors', !n.read && 'bg-accent-soft/60', href && 'hover:bg-elevated');
  return (
    <li data-unread={n.read ? undefined : 'true'} data-kind={n.kind ?? undefined}>
      {href ? (
        <Link href={href} className={rowClass} onClick={() => onOpen(n)}>
          {body}
        </Link>
      ) : (
        <div className={rowClass}>{body}</div>
      )}
    </li>
  );
};

const headerLink = 'rounded-lg px-2 py-1.5 text-sm font-medium text-accent underline-offset-2 hover:underline focus-visible:ring-2 focus-visible:ring-accent/50 focus-visible:outline-none';

/** The signed-in user's notifications, newest first; unread ones highlighted and read when opened. */
export const NotificationList = () => {
  const session = useSession();
  const list = useNotifications({ isEnabled: session.isSignedIn });
  const mark = useMarkNotificationsRead();
  const unread = list.data?.unreadCount ?? 0;

  const header = (
    <PageHeader
      title="Notifications"
      description={list.data ? (unread > 0 ? `${unread} unread` : 'You are all caught up.') : 'Follows, comments, likes, mentions, shares and your trades.'}
      actions={
        session.isSignedIn ? (
          <>
            <Link href="/notifications/digest" className={headerLink}>
              Digest
            </Link>
            <Link href="/settings/notifications" className={headerLink}>
              Settings
            </Link>
            {list.data && (
              <Button variant="secondary" size="sm" disabled={unread === 0} isLoading={mark.isPending && mark.variables && 'all' in mark.variables} onClick={() => mark.mutate({ all: true })}>
                Mark all read
              </Button>
            )}
          </>
        ) : undefined
      }
    />
  );

  if (session.isPending || (session.isSignedIn && list.isPending)) {
    return (
      <>
        {header}
        <div role="status" aria-label="Loading notifications" className="flex flex-col gap-2">
          {[0, 1, 2, 3].map((i) => (
            <Skeleton key={i} className="h-16 w-full rounded-xl" />
          ))}
        </div>
      </>
    );
  }
  if (!session.isSignedIn) {
    return (
      <>
        {header}
        <SignInPrompt icon={<BellIcon />} title="Sign in to see your notifications" description="New followers, comments on your posts, likes, mentions and shares show up here, and so do big moves, liquidation warnings, funding and payouts on your positions." />
      </>
    );
  }
  if (list.isError) {
    return (
      <>
        {header}
        <ErrorState message={describeError(list.error)} onRetry={() => list.refetch()} isRetrying={list.isFetching} />
      </>
    );
  }
  const items = list.data?.notifications ?? [];
  return (
    <>
      {header}
      {mark.isError && <Notice tone="error" className="mb-4">{describeError(mark.error)}</Notice>}
      {items.length === 0 ? (
        <EmptyState
          icon={<BellIcon />}
          title="No notifications yet"
          description="New followers, comments and replies on your posts, likes, mentions and shares will show up here, and so will big moves, liquidation warnings, funding and payouts on your positions."
        />
      ) : (
        <ul aria-label="Notifications" className="divide-y divide-line overflow-hidden rounded-2xl border border-line bg-surface">
          {items.map((n) => (
            <NotificationRow key={n.id} n={n} onOpen={(x) => !x.read && mark.mutate({ ids: [x.id] })} />
          ))}
        </ul>
      )}
    </>
  );
};
