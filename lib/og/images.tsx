/**
 * Share images of markets, posts and profiles: the data through the markets and users services, the
 * drawing in cards.tsx. A market or user that does not exist gets the generic card (a share
 * link must never turn into an error page in someone's feed).
 */
import { getPrediction } from '@/lib/markets/service/read-markets';
import { getPost } from '@/lib/posts/service/read-posts';
import { getProfileByUsername } from '@/lib/users/service/read-profile';
import { FallbackCard, MarketCard, postCardImage, ProfileCard, renderCard } from './cards';
import { orNull } from './or-null';

export async function marketCardImage(id: string) {
  const found = await orNull(getPrediction(id));
  if (!found) return renderCard(<FallbackCard label="Prediction market" />);
  const m = found.market;
  return renderCard(<MarketCard question={m.question} yesPrice={m.yesPrice} volume={m.volume} status={m.status} resolvedOutcome={m.resolvedOutcome} />);
}

export async function profileCardImage(username: string) {
  const user = await orNull(getProfileByUsername({ caller: null, username }));
  if (!user) return renderCard(<FallbackCard label="Player" />);
  return renderCard(
    <ProfileCard
      displayName={user.displayName}
      username={user.username}
      bio={user.bio}
      followers={user.stats.followersCount}
      following={user.stats.followingCount}
      posts={user.stats.postsCount}
      trades={user.stats.tradesCount}
      reputation={user.reputationPoints}
    />,
  );
}

export async function postImage(id: string) {
  const found = await orNull(getPost({ caller: null, postId: id }));
  if (!found) return renderCard(<FallbackCard label="Post" />);
  const p = found.post;
  return postCardImage({
    authorName: p.author.displayName || p.author.username,
    username: p.author.username,
    content: p.content,
    likes: p.likesCount,
    comments: p.commentsCount,
    shares: p.sharesCount,
  });
}
