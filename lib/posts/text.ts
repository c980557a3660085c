/**
 * Post and comment text rules, pure and browser-safe (the composer and the server share them):
 * length as a person counts it (grapheme clusters, so an emoji or a flag is one), #tags and
 * @mentions, and the trending scores.
 *
 * Cost: every rule here is linear in its input, and the request schemas cap the raw length
 * (lib/contracts/common.ts zText) before any of them runs. Not Intl.Segmenter: in this runtime
 * its grapheme iteration is quadratic (64,000 characters took over a second, 256,000 a minute),
 * so one large post could hold the server's CPU for minutes. unicode-segmenter implements the
 * same Unicode rules (UAX #29) in one pass.
 */
import { countGraphemes } from 'unicode-segmenter/grapheme';

export const POST_MAX_CHARS = 280;
export const COMMENT_MIN_CHARS = 10;
export const COMMENT_MAX_CHARS = 2000;
export const QUOTE_MAX_CHARS = 280;

/** Characters as a reader sees them: "👍🏽" and "🇫🇷" are one each. Linear in the length. */
export function visibleLength(s: string): number {
  return countGraphemes(s);
}

/** A #tag: group 2 is the tag. Global: use with matchAll. */
export const TAG_PATTERN = /(^|[^\p{L}\p{N}_&])#([\p{L}\p{N}_]{1,50})/gu;
/** An @mention: group 2 is the username. Global: use with matchAll. */
export const MENTION_PATTERN = /(^|[^\p{L}\p{N}_@])@([A-Za-z0-9_]{3,20})(?![A-Za-z0-9_])/gu;

/** Distinct tags of a text, lower case, without '#', in order of appearance. */
export function parseTags(text: string): string[] {
  return [...new Set([...text.matchAll(TAG_PATTERN)].map((m) => m[2]!.toLowerCase()))];
}

/** Distinct usernames mentioned in a text, lower case, without '@'. */
export function parseMentions(text: string): string[] {
  return [...new Set([...text.matchAll(MENTION_PATTERN)].map((m) => m[2]!.toLowerCase()))];
}

/**
 * Trending posts: engagement over age with a time decay (Hacker-News style), so a fresh post with
 * a few likes can outrank an old one with many. Comments and shares weigh more than likes.
 */
export function postTrendScore(p: { likes: number; comments: number; shares: number; ageHours: number }) {
  return (1 + p.likes + 2 * p.comments + 3 * p.shares) / Math.pow(Math.max(0, p.ageHours) + 2, 1.5);
}

/** Half-life of a tag use for trending tags: a use a day old counts half. */
export const TAG_HALF_LIFE_HOURS = 24;

/** The weight of one tag use of a given age. */
export function tagUseWeight(ageHours: number) {
  return Math.pow(0.5, Math.max(0, ageHours) / TAG_HALF_LIFE_HOURS);
}

/**
 * A $TICKER as written: group 2 is the symbol (an upper-case letter, then letters or digits). Not
 * after a word character or another '$', and not followed by one, the same bounds as the server's
 * ticker lookup (lib/posts/queries.ts). Global: use with matchAll. A match links only when the
 * post's `tickers` (the real perp tickers the server found) name it.
 */
export const TICKER_PATTERN = /(^|[^A-Za-z0-9_$])\$([A-Z][A-Z0-9]{0,9})(?![A-Za-z0-9_])/g;

export type TTextSpan = { kind: 'text'; text: string } | { kind: 'tag' | 'mention' | 'ticker'; text: string; value: string };

/**
 * A text cut into plain runs and linkable spans (#tags, @mentions, and $TICKERs that are in
 * `tickers`), in order. The spans' texts joined give the text back unchanged: rendering them as
 * React text nodes and links never interprets markup. Where two patterns overlap, the earlier wins.
 */
export function splitRichText(text: string, { tickers = [] }: { tickers?: readonly string[] } = {}): TTextSpan[] {
  const known = new Set(tickers.map((t) => t.toUpperCase()));
  const found: Array<{ start: number; end: number; kind: 'tag' | 'mention' | 'ticker'; value: string }> = [];
  const collect = (pattern: RegExp, kind: 'tag' | 'mention' | 'ticker', sigil: number) => {
    for (const m of text.matchAll(pattern)) {
      if (kind === 'ticker' && !known.has(m[2]!)) continue;
      const start = m.index + m[1]!.length;
      found.push({ start, end: start + sigil + m[2]!.length, kind, value: m[2]! });
    }
  };
  collect(TAG_PATTERN, 'tag', 1);
  collect(MENTION_PATTERN, 'mention', 1);
  if (known.size) collect(TICKER_PATTERN, 'ticker', 1);
  found.sort((a, b) => a.start - b.start);
  const out: TTextSpan[] = [];
  let at = 0;
  for (const s of found) {
    if (s.start < at) continue;
    if (s.start > at) out.push({ kind: 'text', text: text.slice(at, s.start) });
    out.push({ kind: s.kind, text: text.slice(s.start, s.end), value: s.value });
    at = s.end;
  }
  if (at < text.length) out.push({ kind: 'text', text: text.slice(at) });
  return out;
}

/** The trade a post reports, as the API sends it (lib/contracts/posts ZPostTrade). */
type TReportedTrade = {
  kind: 'prediction' | 'perp';
  side: string;
  action: string;
  ticker: string | null;
  marketId: string | null;
  price: number;
  amount: number;
  shares: number | null;
  leverage: number | null;
};

const sharesText = new Intl.NumberFormat('en-US', { maximumFractionDigits: 2 });
const centsText = new Intl.NumberFormat('en-US', { maximumFractionDigits: 1 });
const perpPriceText = new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
/** Low prices keep more digits, where a cent is a large move. */
const lowPerpPriceText = new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 4 });
const leverageText = new Intl.NumberFormat('en-US', { maximumFractionDigits: 2 });

/** "41¢" from 0.41 (a share's price). */
export function centsOf(price: number) {
  return `${centsText.format(price * 100)}¢`;
}

const PERP_VERB: Record<string, string> = { open: 'Opened', close: 'Closed', liquidation: 'Liquidated' };

/**
 * A reported trade in a few words: "Bought 120 YES at 41¢", "Sold 12.5 NO at 63¢", "Opened 40×
 * long $ORBT at 12.30", "Liquidated 10× short $NEXA at 8.02".
 */
export function describeTrade(t: TReportedTrade) {
  if (t.kind === 'prediction') {
    const verb = t.action === 'sell' ? 'Sold' : 'Bought';
    const shares = t.shares === null ? '' : `${sharesText.format(t.shares)} `;
    return `${verb} ${shares}${t.side} at ${centsOf(t.price)}`;
  }
  const leverage = t.leverage === null ? '' : `${leverageText.format(t.leverage)}× `;
  return `${PERP_VERB[t.action] ?? 'Traded'} ${leverage}${t.side} $${t.ticker ?? ''} at ${(t.price >= 10 ? perpPriceText : lowPerpPriceText).format(t.price)}`;
}

/** Where a reported trade's market lives: the question's page or the ticker's. Null when the row names neither. */
export function tradeHref(t: Pick<TReportedTrade, 'kind' | 'ticker' | 'marketId'>) {
  if (t.kind === 'perp') return t.ticker ? `/perps/${encodeURIComponent(t.ticker)}` : null;
  return t.marketId ? `/markets/${encodeURIComponent(t.marketId)}` : null;
}

/** An author's holding on a market card: "holds 120 YES at 41¢". */
export function describeHolding(p: { side: string; shares: number; avgPrice: number }) {
  return `holds ${sharesText.format(p.shares)} ${p.side} at ${centsOf(p.avgPrice)}`;
}
