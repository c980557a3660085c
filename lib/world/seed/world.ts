/**
 * The idempotent world seed: organizations with tickers, NPC actors (users with isActor) with
 * tiers S/A/B/C, active questions with reserves (a question about a ticker's price with its price
 * rule), pools, and groups with their chats. Rows have fixed ids and inserts skip
 * what exists, so running it again changes nothing. Actor balances go through the ledger. Runs at
 * server start (lib/boot.ts) and from npm run db:seed (scripts/db-seed.ts).
 */
import { eq } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { actors, markets, organizations, perpMarkets, perpPricePoints, pools, posts, postTags, questionRules, users } from '@/db/schema';
import { now } from '@/lib/clock/clock';
import { credit } from '@/lib/ledger/ledger';
import { applyPointsChange } from '@/lib/points/ledger';
import { dec, toDecimalString } from '@/lib/money/decimal';
import { recordPricePoint } from '@/lib/markets/service/price-points';
import { DEFAULT_DEPTH, fundingPeriodStart } from '@/lib/perps/math';
import { ACTOR_POINTS, ACTOR_STARTING_BALANCE, ACTORS, GROUPS, ORGANIZATIONS, POOLS, QUESTIONS, SEED_NEWS, SEED_POSTS } from './world-data';
import { parseTags } from '@/lib/posts/text';
import { actorAvatarUrl } from '@/lib/world/assets';
import { insertWorldEvents } from '../events';
import { createPool } from '@/lib/pools/service/create-pool';
import { createGroup } from '@/lib/groups/service/create-group';

/** A question's date as the game's questions name it: "Fri, Apr 12" (UTC), as lib/game/world-rules words its own. */
const DATE_LABEL = new Intl.DateTimeFormat('en-US', { weekday: 'short', month: 'short', day: 'numeric', timeZone: 'UTC' });

export function actorId(slug: string) {
  return `actor-${slug}`;
}

export async function seedWorld(db: Db) {
  return db.transaction(async (tx) => {
    const at = now();
    await tx
      .insert(organizations)
      .values(
        ORGANIZATIONS.map((o) => ({
          id: o.id,
          name: o.name,
          ticker: o.ticker,
          sector: o.sector,
          description: o.description,
          initialPrice: o.price,
          currentPrice: o.price,
          fairValue: o.price,
          volatility: o.volatility,
          createdAt: at,
        })),
      )
      .onConflictDoNothing();

    // One perpetual market per ticker, marked at the organization's price, with a first price point.
    const newPerps = await tx
      .insert(perpMarkets)
      .values(
        ORGANIZATIONS.map((o) => ({
          ticker: o.ticker,
          organizationId: o.id,
          markPrice: o.price,
          depth: DEFAULT_DEPTH.toFixed(),
          lastFundingAt: fundingPeriodStart(at),
          createdAt: at,
          updatedAt: at,
        })),
      )
      .onConflictDoNothing()
      .returning({ ticker: perpMarkets.ticker, markPrice: perpMarkets.markPrice });
    if (newPerps.length > 0) {
      await tx.insert(perpPricePoints).values(
        newPerps.map((p) => ({ ticker: p.ticker, markPrice: p.markPrice, indexPrice: p.markPrice, source: 'seed' as const, createdAt: at })),
      );
    }

    let newActors = 0;
    for (const [i, a] of ACTORS.entries()) {
      const [inserted] = await tx
        .insert(users)
        .values({
          id: actorId(a.slug),
          username: a.slug,
          displayName: a.name,
          bio: a.bio,
          // Each actor's own generated avatar (lib/world/assets.ts, shipped under public/game-assets).
          profileImageUrl: actorAvatarUrl(a.slug),
          isActor: true,
          profileComplete: true,
          referralCode: `NPC${String(i + 1).padStart(5, '0')}`,
          createdAt: at,
          updatedAt: at,
        })
        .onConflictDoNothing()
        .returning({ id: users.id });
      if (!inserted) continue;
      newActors++;
      await tx
        .insert(actors)
        .values({ userId: inserted.id, tier: a.tier, role: a.role, personality: a.bio, organizationId: a.org, createdAt: at })
        .onConflictDoNothing();
      await credit(tx, { userId: inserted.id, amount: ACTOR_STARTING_BALANCE, type: 'deposit', description: 'NPC starting capital' });
      // An actor's standing, through the points ledger like every other change of points.
      await applyPointsChange(tx, { userId: inserted.id, amount: ACTOR_POINTS[a.tier], reason: 'seed:actor_standing', awardKey: 'seed:actor_standing' });
    }

    for (const q of QUESTIONS) {
      const [exists] = await tx.select({ id: markets.id }).from(markets).where(eq(markets.id, q.id));
      if (exists) continue;
      const resolutionDate = new Date(at.getTime() + q.days * 86_400_000);
      const [m] = await tx.insert(markets).values({
        id: q.id,
        text: q.text.replace('{date}', DATE_LABEL.format(resolutionDate)),
        yesShares: q.yes,
        noShares: q.no,
        liquidity: toDecimalString(dec(q.yes).plus(q.no)),
        resolutionDate,
        createdAt: at,
      }).returning();
      await recordPricePoint(tx, m!, 'create');
      // A question about a ticker's price resolves from that price (lib/game/steps/questions.ts),
      // born with the probability the walk gives it, as the game's own price questions are.
      const rule = q.price;
      if (rule) {
        await tx.insert(questionRules).values({
          marketId: q.id,
          kind: 'price',
          organizationId: rule.org,
          ticker: rule.ticker,
          comparison: rule.comparison,
          threshold: String(rule.threshold),
          probability: rule.probability,
          createdAt: at,
        });
      }
    }

    // Pools: each with its own account and its manager's seed capital as the first lot.
    for (const p of POOLS) {
      const [exists] = await tx.select({ id: pools.id }).from(pools).where(eq(pools.id, p.id));
      if (exists) continue;
      await createPool(tx, {
        id: p.id,
        managerId: actorId(p.actor),
        name: p.name,
        description: p.description,
        tier: p.tier,
        performanceFeeRate: p.fee,
        seedCapital: p.value,
      });
    }

    // Groups: each with its chat, its owner and founding members (lib/groups).
    for (const g of GROUPS) {
      await createGroup(tx, {
        id: g.id,
        name: g.name,
        description: g.description,
        kind: g.kind,
        visibility: g.visibility,
        ownerId: actorId(g.owner),
        organizationId: g.organizationId,
        tier: g.tier,
        memberIds: g.members.map(actorId),
      });
    }

    const newPosts = await tx
      .insert(posts)
      .values(
        SEED_POSTS.map((p) => {
          const createdAt = new Date(at.getTime() - p.minutesAgo * 60_000);
          return { id: p.id, authorId: actorId(p.actor), content: p.content, createdAt, updatedAt: createdAt };
        }),
      )
      .onConflictDoNothing()
      .returning({ id: posts.id, content: posts.content, createdAt: posts.createdAt });
    // Past news: already priced in (no impact), so only the widget and the NPCs' memory see it.
    await insertWorldEvents(
      tx,
      SEED_NEWS.map((n) => ({
        id: n.id,
        kind: n.kind,
        title: n.title,
        content: n.content,
        organizationId: n.org,
        actorId: n.actor ? actorId(n.actor) : null,
        createdAt: new Date(at.getTime() - n.minutesAgo * 60_000),
      })),
    );

    const tags = newPosts.flatMap((p) => parseTags(p.content).map((tag) => ({ postId: p.id, tag, createdAt: p.createdAt })));
    if (tags.length) await tx.insert(postTags).values(tags).onConflictDoNothing();
    return { newActors };
  });
}
