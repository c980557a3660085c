'use client';

import { useId, useState } from 'react';
import { cn } from '@/components/ui/cn';
import type { TPost } from '@/lib/client/queries/posts';
import { feedItemKey } from '@/lib/client/queries/posts';
import { PostCard } from './post-card';

/**
 * A run of NPC trade receipts folded into one feed item (lib/posts/receipts groupReceipts): one
 * line, "5 NPC trades · $ORBT, $KLDR …", and a button (a native button: Tab reaches it, Enter and
 * Space open it) that shows the receipts as posts beneath it. An <article> so the ARIA feed keeps
 * only articles as its items; the receipts inside are articles of their own.
 */
export const ReceiptsDigest = ({ posts, summary, posInSet, setSize }: { posts: TPost[]; summary: string; posInSet?: number; setSize?: number }) => {
  const [isOpen, setIsOpen] = useState(false);
  const listId = useId();
  return (
    <article
      aria-posinset={posInSet}
      aria-setsize={setSize}
      aria-label={summary}
      data-testid="receipts-digest"
      className="rounded-2xl border border-dashed border-line bg-surface/60 px-4 py-2 sm:px-5"
    >
      <button
        type="button"
        aria-expanded={isOpen}
        aria-controls={listId}
        onClick={() => setIsOpen((o) => !o)}
        className="flex min-h-9 w-full items-center gap-2 rounded-lg text-left text-sm text-ink-muted hover:text-ink focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-accent/50"
      >
        <svg aria-hidden="true" viewBox="0 0 20 20" fill="none" className={cn('size-4 shrink-0 transition-transform', isOpen ? 'rotate-0' : '-rotate-90')}>
          <path d="M5.5 7.5 10 12l4.5-4.5" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" strokeLinejoin="round" />
        </svg>
        <span className="min-w-0 truncate">{summary}</span>
        <span className="sr-only">{isOpen ? ', shown' : ', folded'}</span>
      </button>
      <div id={listId} hidden={!isOpen} className="mt-2 mb-2 flex flex-col gap-3">
        {isOpen && posts.map((post) => <PostCard key={feedItemKey(post)} post={post} />)}
      </div>
    </article>
  );
};
