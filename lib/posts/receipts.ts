/**
 * NPC trade receipts folded into one digest line (the home feed, issue 35): a run of two or more
 * consecutive posts by NPC actors that report a trade (`trade` set: posts.trade_kind) becomes one
 * item, "5 NPC trades · $ORBT, $KLDR …", which the reader can open. Reposts, removed posts and
 * players' trade posts stay posts. Pure and browser-safe: the feed's query stays one statement and
 * the grouping happens over the pages already loaded.
 */

/** The parts of a post the grouping reads (lib/posts/dto TPost). */
export type TReceiptCandidate = {
  id: string;
  author: { isActor: boolean };
  trade: { kind: 'prediction' | 'perp'; ticker: string | null; marketId: string | null } | null;
  market?: { id: string; question: string } | null;
  repost: unknown | null;
  removed?: unknown | null;
};

export type TFeedItem<P> = { kind: 'post'; post: P; index: number } | { kind: 'receipts'; key: string; posts: P[]; index: number; summary: string };

/** A post that is an NPC's trade receipt. */
export function isTradeReceipt(p: TReceiptCandidate) {
  return p.author.isActor && p.trade !== null && !p.repost && !p.removed;
}

/** How many receipts make a digest line (a lone receipt stays a post). */
export const MIN_RECEIPTS = 2;

/** How many names the digest line lists before "…". */
const NAMES_SHOWN = 3;

const shorten = (s: string, max = 28) => (s.length > max ? `${s.slice(0, max - 1).trimEnd()}…` : s);

/** What the trades were in: `$TICKER` for perps, the question (shortened) for prediction markets; distinct, in feed order. */
export function receiptNames(posts: TReceiptCandidate[]): string[] {
  const names: string[] = [];
  for (const p of posts) {
    const t = p.trade;
    if (!t) continue;
    const name = t.kind === 'perp' && t.ticker ? `$${t.ticker}` : p.market?.question ? shorten(p.market.question) : t.marketId ? 'a market' : null;
    if (name && !names.includes(name)) names.push(name);
  }
  return names;
}

/** "5 NPC trades · $ORBT, $KLDR …" (names beyond the first three become "…"). */
export function receiptSummary(posts: TReceiptCandidate[]): string {
  const names = receiptNames(posts);
  const head = `${posts.length} NPC trade${posts.length === 1 ? '' : 's'}`;
  if (names.length === 0) return head;
  const shown = names.slice(0, NAMES_SHOWN).join(', ');
  return `${head} · ${shown}${names.length > NAMES_SHOWN ? ' …' : ''}`;
}

/**
 * The feed's items: posts, with each run of at least MIN_RECEIPTS consecutive NPC trade receipts
 * folded into one `receipts` item keyed by its first post (stable while pages load below it).
 * `index` is the item's position, for aria-posinset. Order is kept; nothing is dropped.
 */
export function groupReceipts<P extends TReceiptCandidate>(posts: readonly P[], keyOf: (p: P) => string = (p) => p.id): TFeedItem<P>[] {
  const items: TFeedItem<P>[] = [];
  let run: P[] = [];
  const flush = () => {
    if (run.length >= MIN_RECEIPTS) {
      items.push({ kind: 'receipts', key: `receipts:${keyOf(run[0]!)}`, posts: run, index: items.length, summary: receiptSummary(run) });
    } else {
      for (const post of run) items.push({ kind: 'post', post, index: items.length });
    }
    run = [];
  };
  for (const post of posts) {
    if (isTradeReceipt(post)) {
      run.push(post);
      continue;
    }
    flush();
    items.push({ kind: 'post', post, index: items.length });
  }
  flush();
  return items;
}
