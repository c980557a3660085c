/**
 * What an NPC says in a group chat (lib/game/steps/groups.ts): a line a reader can use. Every line
 * names a concrete ticker or question, the speaker's actual side there (from its book: "Flat" /
 * "No position" when it holds none) and numbers: the price, the size and leverage, the fair value
 * it sees, the news that moved it. Pure and deterministic for given facts and rng.
 */
import type { TRng } from '@/lib/game/rng';

/** What a speaker can talk about: the group's ticker (if any), its own book, the open questions and the last hour's news. */
export type TChatFacts = {
  ticker: { ticker: string; price: number; fairValue: number } | null;
  perps: readonly { ticker: string; side: 'long' | 'short'; size: number; leverage: number; entryPrice: number }[];
  predictions: readonly { question: string; side: 'YES' | 'NO'; shares: number; yesPrice: number; fair: number | null }[];
  markets: readonly { question: string; yesPrice: number; fair: number | null }[];
  news: readonly { title: string; ticker: string | null; impact: number }[];
};

const pct = (x: number) => `${Math.round(x * 100)}%`;
const signedPct = (x: number) => `${x >= 0 ? '+' : ''}${(x * 100).toFixed(1)}%`;
const money = (x: number) => `$${Math.round(x).toLocaleString('en-US')}`;
const clip = (s: string, n: number) => (s.length <= n ? s : `${s.slice(0, n - 1).trimEnd()}…`);

/**
 * One chat line. In a ticker's group: the speaker's position on that ticker (side, leverage, size,
 * entry, mark, the fair value it sees, the news on it), else "Flat $X" with price against fair
 * value. Elsewhere: a question it holds (side, shares, price, its value), else a perp it holds, else
 * the open question whose price strays furthest from its value, with "No position". Null when
 * there is nothing concrete to say.
 */
export function groupChatLine(f: TChatFacts, rng: TRng): string | null {
  if (f.ticker) {
    const t = f.ticker;
    const story = f.news.find((n) => n.ticker === t.ticker);
    const because = story ? ` News: "${clip(story.title, 70)}".` : '';
    const gap = t.price > 0 ? t.fairValue / t.price - 1 : 0;
    const mine = f.perps.filter((p) => p.ticker === t.ticker);
    if (mine.length) {
      const p = rng.pick(mine);
      const move = p.entryPrice > 0 ? (t.price - p.entryPrice) / p.entryPrice : 0;
      const pnl = p.side === 'long' ? move : -move;
      return rng.pick([
        `I'm ${p.side} $${t.ticker} ${p.leverage}x, ${money(p.size)} notional from ${p.entryPrice.toFixed(2)}. Price ${t.price.toFixed(2)}, fair ${t.fairValue.toFixed(2)} by my count (${signedPct(pnl)} on the move).${because}`,
        `Position check: ${p.leverage}x ${p.side} $${t.ticker}, ${money(p.size)}, in at ${p.entryPrice.toFixed(2)}. Now ${t.price.toFixed(2)} against ${t.fairValue.toFixed(2)} fair.${because}`,
      ]);
    }
    return rng.pick([
      `Flat $${t.ticker}: ${t.price.toFixed(2)} against ${t.fairValue.toFixed(2)} fair by my count (${signedPct(gap)}).${because}`,
      `No position in $${t.ticker} yet. ${t.price.toFixed(2)} now, ${t.fairValue.toFixed(2)} is where I see it (${signedPct(gap)}).${because}`,
    ]);
  }
  if (f.predictions.length) {
    const p = rng.pick(f.predictions);
    const sidePrice = p.side === 'YES' ? p.yesPrice : 1 - p.yesPrice;
    const view = p.fair === null ? '' : ` I make ${p.side} ${pct(p.side === 'YES' ? p.fair : 1 - p.fair)}.`;
    return rng.pick([
      `Holding ${p.side} on "${clip(p.question, 80)}": ${Math.round(p.shares)} shares, ${p.side} at ${pct(sidePrice)}.${view}`,
      `On "${clip(p.question, 80)}" my side is ${p.side} (${Math.round(p.shares)} shares). Market ${pct(p.yesPrice)} YES.${view}`,
    ]);
  }
  if (f.perps.length) {
    const p = rng.pick(f.perps);
    return `I'm ${p.side} $${p.ticker} ${p.leverage}x, ${money(p.size)} notional from ${p.entryPrice.toFixed(2)}.`;
  }
  const valued = f.markets.filter((m) => m.fair !== null);
  if (!valued.length) return null;
  const m = [...valued].sort((a, b) => Math.abs(b.fair! - b.yesPrice) - Math.abs(a.fair! - a.yesPrice) || a.question.localeCompare(b.question))[0]!;
  return rng.pick([
    `No position on "${clip(m.question, 80)}" yet: market ${pct(m.yesPrice)} YES, I make it ${pct(m.fair!)}.`,
    `Flat on "${clip(m.question, 80)}". ${pct(m.yesPrice)} YES on the board against ${pct(m.fair!)} by my count.`,
  ]);
}
