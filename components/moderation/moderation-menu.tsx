'use client';

import { useRef, useState } from 'react';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { cn } from '@/components/ui/cn';
import { Notice } from '@/components/ui/error-state';
import { describeError } from '@/lib/client/queries/errors';
import {
  MODERATION_ERROR_MESSAGES,
  useBlockStatus,
  useMuteStatus,
  useToggleBlock,
  useToggleMute,
  type TReportTarget,
} from '@/lib/client/queries/moderation';
import { useSession } from '@/lib/client/queries/users';
import { ActionMenu, type TMenuItem } from './action-menu';
import { Modal } from './modal';
import { ReportDialog } from './report-dialog';

type TPerson = { id: string; username: string };

type TWhere =
  | { kind: 'profile' }
  | { kind: 'post'; postId: string }
  /** A comment is reported as its author, with the comment's address as the evidence. */
  | { kind: 'comment'; commentId: string; postId: string };

/** The menu button's name: on a profile page the person's own menu and their posts' menus differ. */
const menuLabel = (where: TWhere, handle: string) =>
  where.kind === 'profile' ? `More actions for ${handle}` : `More actions for this ${where.kind} by ${handle}`;

const REPORT_WORDS: Record<TWhere['kind'], { item: string; title: string }> = {
  profile: { item: 'Report', title: 'Report' },
  post: { item: 'Report post', title: 'Report a post' },
  comment: { item: 'Report comment', title: 'Report a comment' },
};

const reportTargetOf = (person: TPerson, where: TWhere): TReportTarget =>
  where.kind === 'post' ? { reportType: 'post', reportedPostId: where.postId } : { reportType: 'user', reportedUserId: person.id };

const commentAddress = (where: Extract<TWhere, { kind: 'comment' }>) =>
  typeof window === 'undefined' ? '' : `${window.location.origin}/posts/${encodeURIComponent(where.postId)}#comment-${encodeURIComponent(where.commentId)}`;

/**
 * The "more" menu of a person, a post or a comment: Mute or Unmute (profile and post author),
 * Block or Unblock, and Report, for a signed-in reader about someone else (nothing otherwise).
 * The menu asks whether the person is blocked or muted when it opens (a profile asks at once and
 * shows "Blocked" and "Muted" beside it). Blocking asks for confirmation; muting, unmuting and
 * unblocking act at once. A block or mute takes the person's posts out of every feed on screen.
 */
export const ModerationMenu = ({ person, where, className }: { person: TPerson; where: TWhere; className?: string }) => {
  const session = useSession();
  const isOther = session.isSignedIn && session.user?.id !== person.id;
  if (!isOther) return null;
  return <ModerationMenuFor person={person} where={where} className={className} />;
};

const ModerationMenuFor = ({ person, where, className }: { person: TPerson; where: TWhere; className?: string }) => {
  const isProfile = where.kind === 'profile';
  const canMute = where.kind !== 'comment';
  const [isAsked, setIsAsked] = useState(isProfile);
  const [dialog, setDialog] = useState<'block' | 'report' | null>(null);
  const [message, setMessage] = useState<{ tone: 'success' | 'error'; text: string } | null>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const blockStatus = useBlockStatus(person.id, { isEnabled: isAsked });
  const muteStatus = useMuteStatus(person.id, { isEnabled: isAsked && canMute });
  const block = useToggleBlock();
  const mute = useToggleMute();
  const handle = `@${person.username}`;

  const isBlocked = blockStatus.data?.isBlocked ?? false;
  const isMuted = muteStatus.data?.isMuted ?? false;
  const isStatusPending = blockStatus.isPending || (canMute && muteStatus.isPending);
  const statusFailed = blockStatus.isError || (canMute && muteStatus.isError);

  const fail = (e: unknown) => setMessage({ tone: 'error', text: describeError(e, MODERATION_ERROR_MESSAGES) });

  const onBlock = (isBlocking: boolean) => {
    setMessage(null);
    block.mutate(
      { userId: person.id, block: isBlocking },
      {
        onSuccess: () => {
          setDialog(null);
          setMessage({ tone: 'success', text: isBlocking ? `You blocked ${handle}.` : `You unblocked ${handle}.` });
        },
        // A refused block shows inside its confirmation dialog.
        onError: isBlocking ? undefined : fail,
      },
    );
  };
  const onMute = (isMuting: boolean) => {
    setMessage(null);
    mute.mutate(
      { userId: person.id, mute: isMuting },
      { onSuccess: () => setMessage({ tone: 'success', text: isMuting ? `You muted ${handle}.` : `You unmuted ${handle}.` }), onError: fail },
    );
  };

  const isBusy = block.isPending || mute.isPending;
  const items: TMenuItem[] = [];
  if (canMute) {
    items.push({
      id: 'mute',
      label: isMuted ? `Unmute ${handle}` : `Mute ${handle}`,
      isDisabled: isStatusPending || statusFailed || isBusy,
      onSelect: () => onMute(!isMuted),
    });
  }
  items.push({
    id: 'block',
    label: isBlocked ? `Unblock ${handle}` : `Block ${handle}`,
    isDisabled: isStatusPending || statusFailed || isBusy,
    tone: isBlocked ? 'default' : 'danger',
    onSelect: () => (isBlocked ? onBlock(false) : setDialog('block')),
  });
  items.push({ id: 'report', label: REPORT_WORDS[where.kind].item, tone: 'danger', onSelect: () => setDialog('report') });

  const footer = statusFailed ? (
    <button type="button" className="text-down underline" onClick={() => Promise.all([blockStatus.refetch(), canMute ? muteStatus.refetch() : null])}>
      Could not check. Try again
    </button>
  ) : isStatusPending ? (
    'Checking…'
  ) : null;

  return (
    <div className={cn('flex flex-col items-end gap-1', className)}>
      <div className="flex items-center gap-2">
        {isProfile && isBlocked && <Badge tone="down">Blocked</Badge>}
        {isProfile && isMuted && <Badge tone="warn">Muted</Badge>}
        <ActionMenu
          label={menuLabel(where, handle)}
          items={items}
          onOpen={() => setIsAsked(true)}
          buttonRef={buttonRef}
          footer={footer}
        />
      </div>
      {message && (
        <p role={message.tone === 'error' ? 'alert' : 'status'} className={cn('max-w-64 text-right text-xs', message.tone === 'error' ? 'text-down' : 'text-ink-muted')}>
          {message.text}
        </p>
      )}
      {dialog === 'block' && (
        <Modal title={`Block ${handle}?`} onClose={() => setDialog(null)} returnFocusRef={buttonRef}>
          <div className="flex flex-col gap-4 text-sm text-ink-muted">
            <p>
              Neither of you will see the other&apos;s posts, comments or reposts, and neither can follow, reply to, mention, like,
              share or message the other. Follows between you are removed. {handle} is not told.
            </p>
            <p>You can unblock them any time from this menu or from Settings → Blocked players.</p>
            {block.isError && <Notice tone="error">{describeError(block.error, MODERATION_ERROR_MESSAGES)}</Notice>}
            <div className="flex flex-wrap justify-end gap-2">
              <Button variant="ghost" onClick={() => setDialog(null)}>
                Cancel
              </Button>
              <Button variant="danger" isLoading={block.isPending} onClick={() => onBlock(true)}>
                Block {handle}
              </Button>
            </div>
          </div>
        </Modal>
      )}
      {dialog === 'report' && (
        <ReportDialog
          title={`${REPORT_WORDS[where.kind].title}${where.kind === 'profile' ? ` ${handle}` : ''}`}
          description={
            where.kind === 'post'
              ? `Tell moderators what is wrong with this post by ${handle}.`
              : where.kind === 'comment'
                ? `Tell moderators what is wrong with this comment by ${handle}; a link to it is attached.`
                : `Tell moderators what ${handle} did.`
          }
          target={reportTargetOf(person, where)}
          initialEvidence={where.kind === 'comment' ? commentAddress(where) : ''}
          onClose={() => setDialog(null)}
        />
      )}
    </div>
  );
};
