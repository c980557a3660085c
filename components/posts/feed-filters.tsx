'use client';

import { Tabs } from '@/components/ui/tabs';
import type { TFeedView } from '@/lib/posts/feed-filter';

const PUBLIC_VIEWS = [
  { value: 'everyone', label: 'Everyone' },
  { value: 'players', label: 'Players' },
] as const;

const SIGNED_IN_VIEWS = [...PUBLIC_VIEWS, { value: 'mine', label: 'My markets' }, { value: 'following', label: 'Following' }, { value: 'favorites', label: 'Favorites' }] as const;

/**
 * The home feed's filter as tabs (arrow keys move between them): Everyone, Players and, signed in,
 * My markets, Following and Favorites. The list scrolls sideways on a narrow phone rather than
 * wrapping a label. The panel is the caller's (tabPanelProps('feed', view)).
 */
export const FeedFilters = ({ view, isSignedIn, onChange }: { view: TFeedView; isSignedIn: boolean; onChange: (next: TFeedView) => void }) => (
  <div className="-mx-1 overflow-x-auto px-1 [&_[role=tab]]:shrink-0 [&_[role=tab]]:whitespace-nowrap [&_[role=tablist]]:w-max [&_[role=tablist]]:min-w-full [&_[role=tablist]]:gap-5 sm:[&_[role=tablist]]:gap-6">
    <Tabs<TFeedView> label="Feed" idPrefix="feed" value={view} tabs={isSignedIn ? SIGNED_IN_VIEWS : PUBLIC_VIEWS} onChange={onChange} />
  </div>
);
