/**
 * Figure: the game tick at scale. A world of 10,000 players, 100,000 open perp positions (longs
 * and shorts on every ticker, liquidation prices well away from the mark), 50 questions and 200
 * NPC actors, built with set-based SQL, plus 100 trading pools (createPool, managed by 100 of the
 * NPCs, tiers S/A/B/C in turn) holding 20 open perp positions each, opened through the pools'
 * own trade service (openPoolPerp), so the tick's pool step has managers to run and 104 NAV
 * points to record (the 4 seeded pools too). The project's figure is the median duration of
 * POST /api/cron/game-tick (scheduler secret) against the started server after a warm-up tick;
 * its reference is the scheduler's limit of 60 s (the goal is under 2 s). A second figure times a
 * tick that also pays a funding period with all 100,000 positions open across it (once every 8
 * hours): since issue 20 that moves each ticker's funding index (one rate row per ticker) and
 * touches no position, so its `funding` timing should not grow with positions (it took 2.28 s
 * when it wrote a payment per position).
 */
import type postgres from 'postgres';
import type { TFigure } from './figures';
import { createBenchPools, openLibDb } from './pools';

const PLAYERS = 10_000;
const POSITIONS = 100_000;
const MARKETS = 50;
const NPCS = 200;
const TICK_LIMIT_MS = 60_000;
/** The scheduler secret the benchmark server runs with (bench/run.ts); 32 bytes or more, as production requires. */
export const BENCH_CRON_SECRET = 'bench-cron-secret-for-the-benchmarks-0123456789';
const POOLS = 100;
const POOL_POSITIONS = 20;
/** Pools opening their positions at once (each pool's own opens run one after another). */
const POOL_SEED_CONCURRENCY = 8;


const seedTickWorld = async (sql: postgres.Sql) => {
  await sql`
    insert into users (id, username, display_name, referral_code, virtual_balance, created_at, updated_at)
    select 'tick-u-' || g, 'tick_player_' || g, 'Tick player ' || g, 'TICKU' || g, 1000, now(), now()
    from generate_series(1, ${PLAYERS}) g on conflict do nothing`;
  await sql`
    insert into users (id, username, display_name, referral_code, virtual_balance, is_actor, profile_complete, created_at, updated_at)
    select 'tick-npc-' || g, 'tick_npc_' || g, 'Tick NPC ' || g, 'TICKN' || g, 10000, true, true, now(), now()
    from generate_series(1, ${NPCS}) g on conflict do nothing`;
  await sql`
    insert into actors (user_id, tier, role, personality, organization_id, created_at)
    select 'tick-npc-' || g, (array['S','A','B','C'])[1 + g % 4], 'Bench NPC', 'Loud and numerate.',
      (select id from organizations order by ticker offset (g % 8) limit 1), now()
    from generate_series(1, ${NPCS}) g on conflict do nothing`;
  const [{ n: existing }] = (await sql`select count(*)::int as n from markets where status = 'active'`) as unknown as [{ n: number }];
  await sql`
    insert into markets (id, text, yes_shares, no_shares, liquidity, resolution_date, created_at)
    select 'tick-q-' || g, 'Bench question ' || g || '?', 500, 500, 1000, now() + ((1 + g % 7) || ' days')::interval, now()
    from generate_series(1, ${Math.max(0, MARKETS - existing)}) g on conflict do nothing`;
  // Half long, half short, on every ticker at its mark; liquidation at ±50%, so a tick's drift
  // reaches none of them and the sweep measures its scan, not a mass liquidation.
  await sql`
    insert into perp_positions (id, user_id, ticker, side, size, units, entry_price, leverage, margin, collateral, funding_paid,
      liquidation_price, open_fee, status, opened_at, updated_at)
    select 'tick-p-' || g, 'tick-u-' || (1 + g % ${PLAYERS}), m.ticker, case when g % 2 = 0 then 'long' else 'short' end,
      100, trunc(100 / m.mark_price, 8), m.mark_price, 2, 50, 50, 0,
      case when g % 2 = 0 then m.mark_price * 0.5 else m.mark_price * 1.5 end, 0.1, 'open', now(), now()
    from generate_series(0, ${POSITIONS - 1}) g
      join (select ticker, mark_price, row_number() over (order by ticker) - 1 as i from perp_markets) m on m.i = g % 8
    on conflict do nothing`;
  await sql`analyze`;
};

/**
 * 100 pools of 20 open positions each: created with createPool (seed capital 20,000, which the
 * positions' margins leave mostly in cash) and filled through openPoolPerp, a long then a short in
 * turn over the 8 tickers, so the marks end where they started, give or take the fills' impact.
 */
const seedTickPools = async (sql: postgres.Sql) => {
  const managers = Array.from({ length: POOLS }, (_, i) => `tick-npc-${i + 1}`);
  const ids = await createBenchPools({ prefix: 'tick-pool', n: POOLS, managers, seedCapital: () => '20000' });
  const tickers = (await sql`select ticker from perp_markets order by ticker`).map((r) => r.ticker as string);
  const { openPoolPerp } = await import('@/lib/pools/service/trade');
  let failed = 0;
  let next = 0;
  await Promise.all(
    Array.from({ length: POOL_SEED_CONCURRENCY }, async () => {
      for (let p = next++; p < ids.length; p = next++) {
        for (let k = 0; k < POOL_POSITIONS; k++) {
          const r = await openPoolPerp({
            poolId: ids[p]!,
            ticker: tickers[(p + k) % tickers.length]!,
            side: k % 2 ? 'short' : 'long',
            size: String(100 + 25 * (k % 8)),
            leverage: String(1 + (k % 5)),
          });
          if (!r.ok) failed++;
        }
      }
    }),
  );
  const [{ n }] = (await sql`
    select count(*)::int as n from perp_positions p join pools on pools.account_user_id = p.user_id
    where pools.id like 'tick-pool-%' and p.status = 'open'`) as unknown as [{ n: number }];
  if (failed > 0 || n !== POOLS * POOL_POSITIONS) console.log(`  note: ${failed} pool opens refused; ${n} pool positions open`);
  await sql`analyze`;
};

export const benchTick = async (ctx: { base: string; sql: postgres.Sql; figures: TFigure[]; databaseUrl: string; poolMax: number }) => {
  const { base, sql, figures } = ctx;
  console.log(
    `\nGame tick at scale: seeding ${PLAYERS} players, ${POSITIONS} open perp positions, ${MARKETS} questions, ${NPCS} NPCs, ` +
      `${POOLS} pools of ${POOL_POSITIONS} positions…`,
  );
  await seedTickWorld(sql);
  await openLibDb(ctx.databaseUrl, ctx.poolMax);
  const t0 = performance.now();
  await seedTickPools(sql);
  console.log(`  pools seeded in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  // A tick runs once per game minute (lib/game/tick.ts): each call asks for the next minute.
  let gameTime = Date.now();
  const tick = async () => {
    gameTime += 60_000;
    const t0 = performance.now();
    const res = await fetch(`${base}/api/cron/game-tick`, {
      method: 'POST',
      headers: { authorization: `Bearer ${BENCH_CRON_SECRET}`, 'content-type': 'application/json' },
      body: JSON.stringify({ now: new Date(gameTime).toISOString() }),
    });
    const ms = performance.now() - t0;
    const body = (await res.json()) as { skipped?: boolean; timings?: Record<string, number>; pools?: unknown; errors?: unknown };
    if (!res.ok || body.skipped) console.log(`  note: tick answered ${res.status} ${JSON.stringify(body).slice(0, 300)}`);
    if (body.errors) console.log(`  note: tick step errors ${JSON.stringify(body.errors).slice(0, 300)}`);
    return { ms, timings: body.timings, pools: body.pools };
  };
  const line = (r: Awaited<ReturnType<typeof tick>>) => `${r.ms.toFixed(0)} ms ${JSON.stringify(r.timings ?? {})} pools ${JSON.stringify(r.pools ?? null)}`;
  const warm = await tick();
  console.log(`  warm-up tick: ${line(warm)}`);
  const runs: number[] = [];
  for (let i = 0; i < 5; i++) {
    const r = await tick();
    runs.push(r.ms);
    console.log(`  tick ${i + 1}: ${line(r)}`);
  }
  const median = [...runs].sort((a, b) => a - b)[Math.floor(runs.length / 2)]!;
  figures.push({ name: 'game tick at scale', project: median, reference: TICK_LIMIT_MS, unit: 'ms', higherIsBetter: false, referenceIs: 'the 60 s limit' });

  // Every 8 hours a tick also pays funding for every open position: move the last payment back a
  // period so the next tick pays one, and time that tick as well. (Positions opened after a
  // boundary do not pay for it, and those the funding step finds opened after a boundary it is
  // paying have their entry index moved: open them a period earlier too, so that all 100,000 are
  // open across it, the common case.)
  await sql`update perp_markets set last_funding_at = last_funding_at - interval '8 hours'`;
  await sql`update perp_positions set opened_at = opened_at - interval '16 hours' where id like 'tick-p-%'`;
  // That rewrite left a dead copy of every position; vacuum it away as autovacuum would, so the
  // figure times funding, not the fixture's own bloat.
  await sql`vacuum analyze perp_positions`;
  const [{ n: ratesBefore }] = (await sql`select count(*)::int as n from perp_funding_rates`) as unknown as [{ n: number }];
  const [{ n: tickers }] = (await sql`select count(*)::int as n from perp_markets`) as unknown as [{ n: number }];
  const funding = await tick();
  const [{ n: ratesAfter }] = (await sql`select count(*)::int as n from perp_funding_rates`) as unknown as [{ n: number }];
  if (ratesAfter - ratesBefore < tickers) console.log(`  note: only ${ratesAfter - ratesBefore} of ${tickers} tickers were funded`);
  const [{ n: accruing }] = (await sql`
    select count(*)::int as n from perp_positions p join perp_markets m on m.ticker = p.ticker
    where p.status = 'open' and p.funding_index_entry <> m.funding_index`) as unknown as [{ n: number }];
  console.log(`  tick with a funding period due: ${line(funding)}; ${accruing} open positions accruing funding`);
  figures.push({ name: 'tick + funding 100k', project: funding.ms, reference: TICK_LIMIT_MS, unit: 'ms', higherIsBetter: false, referenceIs: 'the 60 s limit' });
};
