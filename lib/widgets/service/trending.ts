/**
 * The trending widgets: tags and posts of the last week, by a decaying score (lib/posts/text.ts).
 * Reads only. Computed per caller, never cached across callers: both count only the posts the
 * caller may see (lib/moderation/visibility canSee), so a blocked, muted or banned author's
 * posts neither show up nor lift a tag for them.
 */
import 'server-only';
import { sql } from 'drizzle-orm';
import { getDb, rowsOf } from '@/db/client';
import { posts, postTags, users } from '@/db/schema';
import type { TCaller } from '@/lib/auth/caller';
import { now } from '@/lib/clock/clock';
import { canSee } from '@/lib/moderation/visibility';
import { toAuthorDto } from '@/lib/posts/dto';
import { TAG_HALF_LIFE_HOURS, postTrendScore } from '@/lib/posts/text';

const WINDOW_DAYS = 7;

export async function listTrendingTags(input: { caller: TCaller | null; limit: number }) {
  const at = now();
  const since = new Date(at.getTime() - WINDOW_DAYS * 86_400_000).toISOString();
  const rows = rowsOf<{ tag: string; n: number | string; score: number | string }>(
    await (await getDb()).execute(sql`
      select t.tag, count(*) as n,
        sum(power(0.5, extract(epoch from (${at.toISOString()}::timestamptz - t.created_at)) / 3600.0 / ${TAG_HALF_LIFE_HOURS})) as score
      from ${postTags} t join ${posts} p on p.id = t.post_id
      where t.created_at > ${since}::timestamptz and ${canSee(sql`p.author_id`, input.caller?.userId ?? null)}
      group by t.tag order by score desc, t.tag asc limit ${input.limit}`),
  );
  return {
    tags: rows.map((r) => ({ tag: r.tag, name: r.tag, score: Math.round(Number(r.score) * 1000) / 1000, count: Number(r.n), postsCount: Number(r.n) })),
  };
}

/** Posts of the last week by engagement with a time decay (text.postTrendScore, also in SQL to pick the top). */
export async function listTrendingPosts(input: { caller: TCaller | null; limit: number }) {
  const at = now();
  const since = new Date(at.getTime() - WINDOW_DAYS * 86_400_000).toISOString();
  const ts = sql`${at.toISOString()}::timestamptz`;
  const rows = rowsOf<{
    id: string;
    content: string;
    likes_count: number;
    comments_count: number;
    shares_count: number;
    created_at: string | Date;
    author_id: string;
    username: string;
    display_name: string;
    profile_image_url: string | null;
    reputation_points: number;
    is_actor: boolean;
  }>(
    await (await getDb()).execute(sql`
      select p.id, p.content, p.likes_count, p.comments_count, p.shares_count, p.created_at, p.author_id,
        u.username, u.display_name, u.profile_image_url, u.reputation_points, u.is_actor
      from ${posts} p join ${users} u on u.id = p.author_id
      where p.created_at > ${since}::timestamptz and p.removed_at is null and ${canSee(sql`p.author_id`, input.caller?.userId ?? null)}
      order by (1 + p.likes_count + 2 * p.comments_count + 3 * p.shares_count)
        / power(greatest(extract(epoch from (${ts} - p.created_at)) / 3600.0, 0) + 2, 1.5) desc, p.id
      limit ${input.limit}`),
  );
  return {
    posts: rows.map((r) => {
      const ageHours = (at.getTime() - new Date(r.created_at).getTime()) / 3_600_000;
      return {
        id: r.id,
        content: r.content,
        score: Math.round(postTrendScore({ likes: r.likes_count, comments: r.comments_count, shares: r.shares_count, ageHours }) * 10_000) / 10_000,
        reactions: Number(r.likes_count),
        comments: Number(r.comments_count),
        shares: Number(r.shares_count),
        authorId: r.author_id,
        author: toAuthorDto(r),
        createdAt: new Date(r.created_at).toISOString(),
      };
    }),
  };
}
