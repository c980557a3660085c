/**
 * Tick step: groups. Keeps the world's communities alive through the same services as players:
 *   - chatter: now and then (GROUP_CHATTER_CHANCE per tick) one NPC member of a group says
 *     something a reader can use in its chat (npc/chat.ts groupChatLine): a concrete ticker or
 *     question, the speaker's actual side on it from its book (or flat), and numbers (price,
 *     size, leverage, the fair value it sees, the news that moved it), through lib/chats
 *     sendMessage (the quality checks apply);
 *   - invites: at most once an hour of game time, players whose activity fits are invited (they
 *     opened a perp on an organization's ticker in the last week: its group; they follow two or
 *     more actors of tier S or A: that tier's circle), through lib/groups inviteToGroup, which
 *     never invites a member or anyone invited before, and never across a block.
 * Deterministic for a seed and game time apart from which players exist.
 */
import { sql } from 'drizzle-orm';
import { getDb, rowsOf, withTransaction, type DbOrTx } from '@/db/client';
import { groups, marketPositions, markets as marketsTable, perpPositions, users, worldEvents } from '@/db/schema';
import { npcCaller } from '@/lib/auth/caller';
import { sendMessage } from '@/lib/chats/service/send-message';
import { isAppError } from '@/lib/errors/app-error';
import { inviteToGroup } from '@/lib/groups/service/membership';
import { groupMemberIds } from '@/lib/groups/service/read-groups';
import { groupChatLine, type TChatFacts } from '../npc/chat';
import { loadValuedMarkets } from '../npc/state';
import { loadOrganizations } from '../state';
import type { TTickContext } from '../types';

export const GROUP_CHATTER_CHANCE = 0.3;
export const GROUP_INVITE_INTERVAL_MS = 3_600_000;
/** Invites written per run at most. */
export const MAX_INVITES_PER_RUN = 50;

const LAST_RUN = Symbol.for('playmoney.groupInvitesLastRun');
type TGlobal = typeof globalThis & { [LAST_RUN]?: number };

/** Forgets the last invite run (tests), so the next tick invites. */
export function resetGroupInviteSchedule() {
  (globalThis as TGlobal)[LAST_RUN] = undefined;
}

export type TGroupStepResult = { messages: number; invites: number };

type TGroupInfo = { id: string; chat_id: string; name: string; kind: string; tier: string | null; owner_id: string; ticker: string | null; organization_id: string | null };

/**
 * What a speaker can talk about (npc/chat.ts): its open perps and prediction positions, the open
 * questions with the value the world's rules give them (npc/state.ts loadValuedMarkets), and the
 * last hour's news. Read in a fixed order.
 */
async function chatFacts(db: DbOrTx, at: Date, userId: string, ticker: TChatFacts['ticker']): Promise<TChatFacts> {
  const ts = at.toISOString();
  const perps = rowsOf<{ ticker: string; side: 'long' | 'short'; size: string; leverage: string; entry_price: string }>(
    await db.execute(sql`
      select ticker, side, size, leverage, entry_price from ${perpPositions}
      where user_id = ${userId} and status = 'open' order by opened_at, ticker, side, id`),
  ).map((p) => ({ ticker: p.ticker, side: p.side, size: Number(p.size), leverage: Number(p.leverage), entryPrice: Number(p.entry_price) }));
  const markets = await loadValuedMarkets(db, at);
  const held = rowsOf<{ market_id: string; side: 'YES' | 'NO'; shares: string }>(
    await db.execute(sql`
      select mp.market_id, mp.side, mp.shares from ${marketPositions} mp join ${marketsTable} m on m.id = mp.market_id
      where mp.user_id = ${userId} and mp.shares > 0 and mp.settled_at is null and m.status = 'active'
      order by m.question_number, mp.side`),
  );
  const predictions = held.flatMap((h) => {
    const m = markets.find((x) => x.id === h.market_id);
    // A book from before one side per market may hold both: it talks about neither.
    if (!m || held.some((o) => o.market_id === h.market_id && o.side !== h.side)) return [];
    return [{ question: m.text, side: h.side, shares: Number(h.shares), yesPrice: m.yesPrice, fair: m.fair ?? null }];
  });
  const news = rowsOf<{ title: string; ticker: string | null; impact: string | null }>(
    await db.execute(sql`
      select e.title, o.ticker, e.impact from ${worldEvents} e left join organizations o on o.id = e.organization_id
      where e.created_at > ${new Date(at.getTime() - 3_600_000).toISOString()}::timestamptz and e.created_at <= ${ts}::timestamptz
      order by e.created_at desc, e.id`),
  ).map((e) => ({ title: e.title, ticker: e.ticker, impact: Number(e.impact ?? 0) }));
  return { ticker, perps, predictions, markets: markets.map((m) => ({ question: m.text, yesPrice: m.yesPrice, fair: m.fair ?? null })), news };
}

export async function runGroupStep(ctx: TTickContext): Promise<TGroupStepResult> {
  const db = await getDb();
  const rng = ctx.rng.fork('groups');
  const all = rowsOf<TGroupInfo>(
    await db.execute(sql`
      select g.id, g.chat_id, g.name, g.kind, g.tier, g.owner_id, g.organization_id, o.ticker
      from ${groups} g left join organizations o on o.id = g.organization_id
      order by g.id`),
  );
  let messages = 0;
  if (all.length && rng.chance(GROUP_CHATTER_CHANCE) && performance.now() < ctx.deadline) {
    const g = rng.pick(all);
    const members = await groupMemberIds(db, g.id);
    const npcs = rowsOf<{ id: string; username: string }>(
      await db.execute(sql`select id, username from ${users} where is_actor and id in (${sql.join([g.owner_id, ...members].map((id) => sql`${id}`), sql`, `)}) order by id`),
    );
    if (npcs.length) {
      const speaker = rng.pick(npcs);
      const org = g.organization_id ? (await loadOrganizations(db)).find((o) => o.id === g.organization_id) : undefined;
      const line = groupChatLine(await chatFacts(db, ctx.at, speaker.id, org ? { ticker: org.ticker, price: org.price, fairValue: org.fairValue } : null), rng);
      if (line) {
        try {
          await sendMessage({ caller: npcCaller({ userId: speaker.id, username: speaker.username }), id: g.chat_id, content: line });
          messages++;
        } catch (e) {
          // The quality checks refuse a repeat or a burst: the NPC stays quiet this tick.
          if (!isAppError(e)) throw e;
        }
      }
    }
  }

  const g = globalThis as TGlobal;
  const t = ctx.at.getTime();
  const last = g[LAST_RUN];
  if ((last !== undefined && t >= last && t - last < GROUP_INVITE_INTERVAL_MS) || performance.now() > ctx.deadline) return { messages, invites: 0 };
  g[LAST_RUN] = t;
  const since = new Date(t - 7 * 86_400_000).toISOString();
  // Candidates: who fits which group, newest activity first, members and earlier invitees left out.
  const candidates = rowsOf<{ group_id: string; user_id: string; invited_by: string; reason: string }>(
    await db.execute(sql`
      with fits as (
        select g.id as group_id, p.user_id, g.owner_id as invited_by, 'You traded $' || o.ticker || ' this week' as reason, max(p.opened_at) as at
        from perp_positions p
        join organizations o on o.ticker = p.ticker
        join ${groups} g on g.organization_id = o.id
        join ${users} u on u.id = p.user_id and not u.is_actor and not u.is_pool_account and not u.is_banned
        where p.opened_at >= ${since}::timestamptz
        group by g.id, p.user_id, g.owner_id, o.ticker
        union all
        select g.id, f.follower_id, g.owner_id, 'You follow ' || count(*) || ' tier ' || g.tier || ' actors', max(f.created_at)
        from follows f
        join actors a on a.user_id = f.following_id
        join ${groups} g on g.kind = 'tier' and g.tier = a.tier
        join ${users} u on u.id = f.follower_id and not u.is_actor and not u.is_pool_account and not u.is_banned
        group by g.id, f.follower_id, g.owner_id, g.tier
        having count(*) >= 2
      )
      select group_id, user_id, invited_by, reason from fits
      where not exists (select 1 from group_members m where m.group_id = fits.group_id and m.user_id = fits.user_id)
        and not exists (select 1 from group_invites i where i.group_id = fits.group_id and i.user_id = fits.user_id)
      order by at desc, group_id, user_id
      limit ${MAX_INVITES_PER_RUN}`),
  );
  let invites = 0;
  for (const c of candidates) {
    if (performance.now() > ctx.deadline) break;
    if (await withTransaction((tx) => inviteToGroup(tx, { groupId: c.group_id, userId: c.user_id, invitedBy: c.invited_by, reason: c.reason }))) invites++;
  }
  return { messages, invites };
}
