/**
 * The markets list answers its page, `total`, each question's topic and ticker and the filters'
 * choices from one statement (lib/markets/queries.ts findMarkets; prepared for the plain listing).
 * Here each is held against a plain reading of the same rows: the count of the filter's questions,
 * the distinct sectors and tickers of the questions' rules, and the rule of each question; for
 * every status and sort, a page inside and past the end, and the filtered (unprepared) forms.
 * The caller's position in each question, read in the same statement, is held against their
 * positions as the portfolio reads them.
 */
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { getDb, rowsOf } from '@/db/client';
import { markets, organizations, questionRules } from '@/db/schema';
import { callerOfUser } from '@/lib/auth/caller';
import { buyShares } from '@/lib/markets/service/buy-shares';
import { createMarket } from '@/lib/markets/service/create-market';
import { findMarket, findUserPredictionPositions } from '@/lib/markets/queries';
import { seedUser } from '@/test/factories';
import { listPredictions } from '@/lib/markets/service/read-markets';
import type { TMarketListOptions, TMarketSort } from '@/lib/markets/queries';
import { seedWorld } from '@/lib/world/seed/world';

type TRuleOrg = { market_id: string; sector: string | null; ticker: string | null; status: string; text: string };

const reference = async () => {
  const db = await getDb();
  const all = rowsOf<TRuleOrg>(
    await db.execute(sql`select m.id as market_id, o.sector, o.ticker, m.status, m.text
      from ${markets} m left join ${questionRules} r on r.market_id = m.id left join ${organizations} o on o.id = r.organization_id`),
  );
  const pairs = rowsOf<{ sector: string; ticker: string }>(
    await db.execute(sql`select distinct o.sector, o.ticker from ${questionRules} r join ${organizations} o on o.id = r.organization_id`),
  );
  return {
    all,
    facets: { topics: [...new Set(pairs.map((p) => p.sector).filter(Boolean))].sort(), tickers: [...new Set(pairs.map((p) => p.ticker))].sort() },
  };
};

describe('the markets list in one statement', () => {
  beforeAll(async () => {
    await seedWorld(await getDb());
    for (let i = 0; i < 12; i++) {
      await createMarket({ caller: null, text: `Statement check question ${i} ${i % 2 ? 'odd' : 'even'}?`, resolutionDate: new Date(Date.now() + (10 + i) * 86_400_000) });
    }
  });

  it('gives the same total, topics, tickers and choices as reading them one by one', async () => {
    const { all, facets } = await reference();
    const byId = new Map(all.map((r) => [r.market_id, r]));
    const sorts: TMarketSort[] = ['newest', 'volume', 'closing', 'movers'];
    const forms: Omit<TMarketListOptions, 'page' | 'limit'>[] = [
      ...(['active', 'resolved', 'all'] as const).flatMap((status) => sorts.map((sort) => ({ status, sort }))),
      { status: 'all', q: 'odd' },
      { status: 'active', q: 'statement check' },
      { status: 'all', topic: facets.topics[0] },
      { status: 'all', ticker: facets.tickers[0] },
      { status: 'all', q: 'no question says this' },
    ];
    for (const form of forms) {
      const expected = all.filter(
        (r) =>
          (form.status === 'all' || r.status === form.status) &&
          (!form.q || form.q.split(/\s+/).every((w) => r.text.toLowerCase().includes(w.toLowerCase()))) &&
          (!form.topic || r.sector === form.topic) &&
          (!form.ticker || r.ticker === form.ticker),
      ).length;
      for (const page of [1, 2, 50]) {
        const limit = 5;
        const answer = await listPredictions({ ...form, page, limit });
        const label = JSON.stringify({ ...form, page });
        expect(answer.total, label).toBe(expected);
        expect(answer.count, label).toBe(expected);
        expect(answer.pagination, label).toEqual({ page, limit, total: expected, pages: Math.ceil(expected / limit) });
        expect(answer.facets, label).toEqual(facets);
        expect(answer.questions.length, label).toBe(Math.max(0, Math.min(limit, expected - (page - 1) * limit)));
        for (const q of answer.questions) {
          const row = byId.get(q.id)!;
          expect({ topic: q.topic, ticker: q.ticker }, label).toEqual({ topic: row.sector || null, ticker: row.ticker ?? null });
        }
      }
    }
    // Somewhere in the world a question has a topic, and one has none.
    const page = await listPredictions({ status: 'all', page: 1, limit: 100 });
    expect(page.questions.some((q) => q.topic !== null)).toBe(true);
    expect(page.questions.some((q) => q.topic === null)).toBe(true);
  });

  it('sees a new rule at once: the choices are read with the page, not remembered', async () => {
    const db = await getDb();
    const before = await listPredictions({ status: 'active', page: 1, limit: 3 });
    await db.insert(organizations).values({ id: 'org-statement-check', name: 'Statement Check Co', ticker: 'STMTCHK', sector: 'Zymurgy', initialPrice: '10', currentPrice: '10', createdAt: new Date() } as typeof organizations.$inferInsert);
    const m = await createMarket({ caller: null, text: 'Does the statement check see its rule?', resolutionDate: new Date(Date.now() + 5 * 86_400_000) });
    await db.insert(questionRules).values({ marketId: m.id, kind: 'event', organizationId: 'org-statement-check', createdAt: new Date() } as typeof questionRules.$inferInsert);
    const after = await listPredictions({ status: 'active', page: 1, limit: 3 });
    expect(before.facets.tickers).not.toContain('STMTCHK');
    expect(after.facets.tickers).toContain('STMTCHK');
    expect(after.facets.topics).toContain('Zymurgy');
    expect(after.total).toBe(before.total + 1);
    const found = (await listPredictions({ status: 'active', page: 1, limit: 3, ticker: 'STMTCHK' })).questions;
    expect(found.map((q) => [q.id, q.topic, q.ticker])).toEqual([[m.id, 'Zymurgy', 'STMTCHK']]);
  });

  it("answers each question's userPosition from the same statement as the portfolio reads it", async () => {
    const holder = await seedUser({ balance: '10000' });
    const other = await seedUser({ balance: '10000' });
    const yesOnly = await createMarket({ caller: null, text: 'Position check: one side held?', resolutionDate: new Date(Date.now() + 40 * 86_400_000) });
    const both = await createMarket({ caller: null, text: 'Position check: both sides held?', resolutionDate: new Date(Date.now() + 41 * 86_400_000) });
    const none = await createMarket({ caller: null, text: 'Position check: nothing held?', resolutionDate: new Date(Date.now() + 42 * 86_400_000) });
    await buyShares({ caller: callerOfUser(holder), marketId: yesOnly.id, outcome: 'YES', amount: '25' });
    await buyShares({ caller: callerOfUser(holder), marketId: both.id, outcome: 'YES', amount: '10' });
    await buyShares({ caller: callerOfUser(holder), marketId: both.id, outcome: 'NO', amount: '60' });
    await buyShares({ caller: callerOfUser(other), marketId: none.id, outcome: 'NO', amount: '5' });
    const held = (await findUserPredictionPositions(await getDb(), holder.id)).predictions;
    const largest = (marketId: string) =>
      held.filter((p) => p.marketId === marketId).reduce<(typeof held)[number] | null>((a, p) => (a && a.shares >= p.shares ? a : p), null);
    expect(largest(both.id)?.side).toBe('NO');
    // The prepared plain listing and an unprepared (searched) one.
    for (const form of [{ status: 'active' as const }, { status: 'all' as const, q: 'position check' }]) {
      const page = await listPredictions({ ...form, page: 1, limit: 100, userId: holder.id });
      const byId = new Map(page.questions.map((q) => [q.id, q]));
      for (const m of [yesOnly, both, none]) {
        expect(byId.get(m.id)?.userPosition, `${m.text} ${JSON.stringify(form)}`).toEqual(largest(m.id));
      }
      expect(byId.get(none.id)?.userPosition).toBeNull();
      const anonymous = await listPredictions({ ...form, page: 1, limit: 100 });
      expect(anonymous.questions.every((q) => !('userPosition' in q))).toBe(true);
    }
  });

  it('answers each question as the question itself is answered (its row read raw, not through the ORM), on every page and sort', async () => {
    const db = await getDb();
    // Trades, so volumes and 24 h changes are not all zero; and a resolved question.
    const trader = await seedUser({ balance: '10000' });
    const traded = await createMarket({ caller: null, text: 'Row check: traded?', resolutionDate: new Date(Date.now() + 60 * 86_400_000) });
    await buyShares({ caller: callerOfUser(trader), marketId: traded.id, outcome: 'YES', amount: '40' });
    for (const sort of ['newest', 'volume', 'closing', 'movers'] as const) {
      for (const form of [{ status: 'all' as const }, { status: 'all' as const, q: 'check' }]) {
        for (const page of [1, 2, 3]) {
          const answer = await listPredictions({ ...form, sort, page, limit: 7 });
          for (const q of answer.questions) {
            const { topic, ticker, ...question } = q;
            expect(question, `${q.id} ${sort} ${page}`).toEqual(await findMarket(db, q.id));
            expect(topic === null || typeof topic === 'string').toBe(true);
            expect(ticker === null || typeof ticker === 'string').toBe(true);
          }
        }
      }
    }
    const traded24h = (await listPredictions({ status: 'active', sort: 'volume', page: 1, limit: 100 })).questions.find((q) => q.id === traded.id);
    expect(traded24h?.volume24h).toBeGreaterThan(0);
  });
});
