/**
 * How NPC actors talk: a voice per actor (from its role, else its name), and the templates that
 * turn the world's state into posts and replies in that voice. Pure: no I/O; every choice is
 * drawn from the rng it is given, so the same seed writes the same words.
 *
 * Invariants (property-tested): a post is 1 to 280 visible characters, a reply at least 10
 * (the comment quality rule) and at most the comment limit, whatever names, questions or
 * headlines the world holds.
 */
import type { TRng } from '@/lib/game/rng';
import { COMMENT_MAX_CHARS, COMMENT_MIN_CHARS, POST_MAX_CHARS, visibleLength } from '@/lib/posts/text';
import { hashName } from '@/lib/world/assets';
import { expand, type TFacts, type TRules } from './grammar/expand';
import { personaOf } from './grammar/persona';
import { BASE_RULES } from './grammar/rules';

export type TVoice = 'insider' | 'degen' | 'skeptic' | 'analyst' | 'hype';
const VOICES: readonly TVoice[] = ['insider', 'degen', 'skeptic', 'analyst', 'hype'];

/** Who an actor is, as far as its words go. */
export type TSpeaker = { username: string; displayName: string; role: string; orgTicker: string | null; orgName: string | null; personality?: string | null; tier?: string | null };

/** A voice from the role's words; an actor whose role says nothing gets one by name hash (stable). */
export function voiceOf(s: Pick<TSpeaker, 'username' | 'role'>): TVoice {
  const role = s.role.toLowerCase();
  if (/\b(ceo|founder|chief|director|cto|president)\b/.test(role)) return 'insider';
  if (/\b(trader|degen|crypto)\b/.test(role)) return 'degen';
  if (/\b(journalist|critic|reporter|short)\b/.test(role)) return 'skeptic';
  if (/\b(analyst|manager|engineer|regular|economist|scientist)\b/.test(role)) return 'analyst';
  return VOICES[hashName(s.username) % VOICES.length]!;
}

// ---------------------------------------------------------------------------------------------
// Text limits

const segmenter = new Intl.Segmenter(undefined, { granularity: 'grapheme' });
const graphemes = (s: string) => [...segmenter.segment(s)].map((g) => g.segment);

/** Collapses whitespace (templates join fragments) and trims. */
const tidy = (s: string) => s.replace(/\s+/g, ' ').trim();

/** A fragment of at most n visible characters, cut at a word when one is near, with an ellipsis. */
export function clip(s: string, n: number) {
  const t = tidy(s);
  // n UTF-16 units or fewer are n characters or fewer: no need to segment (most posts).
  if (t.length <= n) return t;
  const g = graphemes(t);
  if (g.length <= n) return t;
  const head = g.slice(0, n - 1).join('');
  const space = head.lastIndexOf(' ');
  return `${(space > n * 0.6 ? head.slice(0, space) : head).trimEnd()}…`;
}

/** A post: 1 to 280 visible characters. */
export function fitPost(s: string) {
  const t = clip(s, POST_MAX_CHARS);
  return visibleLength(t) >= 1 ? t : '…';
}

const REPLY_PADDING = ' (noted, thanks)';

/** A reply: at least COMMENT_MIN_CHARS visible characters (padded if a template came out short). */
export function fitReply(s: string) {
  let t = clip(s, Math.min(COMMENT_MAX_CHARS, POST_MAX_CHARS));
  while (visibleLength(t) < COMMENT_MIN_CHARS) t = tidy(t + REPLY_PADDING);
  return t;
}

const pct = (p: number) => `${Math.round(Math.min(0.99, Math.max(0.01, p)) * 100)}%`;
const money = (n: number) => (n >= 100 ? n.toFixed(0) : n.toFixed(2));
const tagOf = (ticker: string) => `#${ticker}`;

// ---------------------------------------------------------------------------------------------
// Posts

export type TPostTopic =
  | { kind: 'org'; ticker: string; name: string; sector: string; price: number; initialPrice: number }
  | { kind: 'holding'; question: string; side: 'YES' | 'NO'; yesPrice: number }
  | { kind: 'question'; question: string; yesPrice: number; /** The speaker's own view of YES, when it has one (what it trades on). */ view?: number | null }
  | { kind: 'event'; title: string; ticker: string | null; impact: number; aboutSelf: boolean }
  | { kind: 'mention'; other: string; ticker: string | null }
  | { kind: 'perp'; ticker: string; side: 'long' | 'short' };

const sectorTag = (sector: string) => {
  const word = sector.split(/\s+/)[0]?.replace(/[^\p{L}\p{N}_]/gu, '') ?? '';
  return word ? `#${word.toLowerCase()}` : '';
};

/**
 * Writes with the speaker's persona (grammar/persona.ts) over the shared grammar (grammar/rules.ts):
 * `start` expanded with the facts (verbatim: tickers, prices, questions, side claims) and the
 * context's own rules (which way the news or the price went, whether the speaker is right).
 */
function speak(speaker: Pick<TSpeaker, 'username' | 'role' | 'personality' | 'tier'>, start: string, rng: TRng, facts: TFacts, context: TRules = {}) {
  const persona = personaOf({ username: speaker.username, role: speaker.role, personality: speaker.personality, tier: speaker.tier });
  return expand({ ...BASE_RULES, ...persona.rules, ...context }, start, rng, facts, persona.caseStyle);
}

/** The context rules of a direction: good news or a rising price reads as the persona's bull lines. */
const moodRules = (good: boolean): TRules => ({
  upOrDown: [good ? '{upWord}' : '{downWord}'],
  orgStance: good ? ['{bull}', '{bullC}', '{bullC}'] : ['{bear}', '{bearC}', '{bearC}'],
  newsTake: good ? ['{bull}', '{bullC}', '{bullC}'] : ['{bear}', '{bearC}', '{bearC}'],
  newsTake2: ['{stanceAside}', '{myTic}.', '{doubt}'],
  selfTake: good ? ['{bull}', '{bullC}'] : ['{bear}', '{bearC}'],
  selfTake2: ['{stanceLine}', '{stanceAside}', '{doubt}'],
  reaction: ['{stanceAside}', '{myTic}.', '{interject}.', '{doubt}'],
  heldWhy: ['{heldWhyBase}', good ? '{bullC}' : '{bearC}', good ? '{bullC}' : '{doubt}'],
  perpWhy: ['{perpWhyBase}', good ? '{bullC}' : '{bearC}', good ? '{bullC}' : '{bearC}'],
  tradeWhy: ['{tradeWhyBase}', good ? '{bullC}' : '{bearC}', good ? '{bullC}' : '{bearC}'],
  exitWhy: ['{exitWhyBase}', '{exitWhyBase} {why}.', '{doubt}'],
  leanLine: ['{leanLineBase}', '{leanLineBase} {why}.', '{leanLineBase} {doubt}'],
});

/** A post in the speaker's voice about one topic; always within the post limit. */
export function renderPost(speaker: TSpeaker, topic: TPostTopic, rng: TRng): string {
  switch (topic.kind) {
    case 'org': {
      const up = topic.price >= topic.initialPrice;
      const move = topic.initialPrice > 0 ? ((topic.price - topic.initialPrice) / topic.initialPrice) * 100 : 0;
      const facts = { T: `$${topic.ticker}`, PX: money(topic.price), MOVE: `${move >= 0 ? '+' : ''}${move.toFixed(1)}%`, TAG: tagOf(topic.ticker), SECTOR: sectorTag(topic.sector), NAME: clip(topic.name, 40) };
      return fitPost(speak(speaker, 'org', rng, facts, moodRules(up)));
    }
    case 'holding': {
      const price = topic.side === 'YES' ? topic.yesPrice : 1 - topic.yesPrice;
      const held = rng.pick([`Still holding ${topic.side}`, `Keeping my ${topic.side}`, `My ${topic.side}`]);
      const facts = { HELD: held, Q: `"${clip(topic.question, 140)}"`, PX: pct(price), MKT: pct(topic.yesPrice) };
      // A holder believes in its side: its reasons read bullish; whether it is right so far follows the price.
      return fitPost(speak(speaker, 'holding', rng, facts, { ...moodRules(true), rightOrWrong: [price >= 0.5 ? '{right}' : '{wrong}'] }));
    }
    case 'question': {
      // A speaker with a view states it (its trades follow it); one without guesses near the market.
      const guess = topic.yesPrice + (rng.next() - 0.5) * 0.4;
      const mine = topic.view ?? Math.min(0.95, Math.max(0.05, guess));
      const lean = mine > topic.yesPrice ? 'YES' : 'NO';
      const facts = { Q: `"${clip(topic.question, 150)}"`, MKT: pct(topic.yesPrice), ME: pct(mine), LEAN: rng.pick([`Leaning ${lean}`, `Lean ${lean}`, `I lean ${lean}`]) };
      return fitPost(speak(speaker, 'question', rng, facts, { ...moodRules(true), leanAdj: ['{cheap}'] }));
    }
    case 'event': {
      const good = topic.impact >= 0;
      const facts = { TITLE: clip(topic.title, 120), T: topic.ticker ? `$${topic.ticker}` : '', TAG: topic.ticker ? tagOf(topic.ticker) : '' };
      return fitPost(speak(speaker, topic.aboutSelf ? 'eventSelf' : 'event', rng, facts, moodRules(good)));
    }
    case 'mention': {
      const facts = { U: `@${topic.other}`, T: topic.ticker ? `$${topic.ticker}` : 'the market' };
      return fitPost(speak(speaker, 'mention', rng, facts, moodRules(rng.chance(0.5))));
    }
    case 'perp': {
      const facts = { RUN: `Running a ${topic.side} on $${topic.ticker}`, TAG: tagOf(topic.ticker) };
      return fitPost(speak(speaker, 'perp', rng, facts, { ...moodRules(topic.side === 'long'), rightOrWrong: [topic.side === 'long' ? '{bull}' : '{bear}'] }));
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Trade announcements

/** A trade an actor just made (what its announcement may say: side, question or ticker, leverage). */
export type TTradeTopic =
  | { kind: 'buy' | 'sell'; outcome: 'YES' | 'NO'; question: string }
  | { kind: 'open' | 'close'; ticker: string; side: 'long' | 'short'; leverage: number };

/** The quoted question of a prediction announcement, clipped: `"<question>"` (tests match on it). */
export const TRADE_QUESTION_CHARS = 150;

/**
 * The post announcing a trade, in the speaker's voice. It names exactly what was traded and
 * nothing else a trade could be mistaken for: "Bought YES on "<question>"", "Sold NO on
 * "<question>"", "Opened a 5x long on $ORBT", "Closed my 5x long on $ORBT". Written only after
 * the trade succeeded, linked to it (lib/game/npc/index.ts).
 */
export function renderTradePost(speaker: TSpeaker, t: TTradeTopic, rng: TRng): string {
  if ('question' in t) {
    const did = `${t.kind === 'buy' ? 'Bought' : 'Sold'} ${t.outcome} on "${clip(t.question, TRADE_QUESTION_CHARS)}"`;
    return fitPost(speak(speaker, t.kind === 'buy' ? 'tradeBuy' : 'tradeSell', rng, { DID: did, TAG: '#predictions' }, { ...moodRules(t.kind === 'buy'), rightOrWrong: ['{stanceAside}'] }));
  }
  const lev = `${Number.isInteger(t.leverage) ? t.leverage : t.leverage.toFixed(1)}x`;
  const did = `${t.kind === 'open' ? `Opened a ${lev}` : `Closed my ${lev}`} ${t.side} on $${t.ticker}`;
  const good = (t.side === 'long') === (t.kind === 'open');
  return fitPost(speak(speaker, t.kind === 'open' ? 'tradeOpen' : 'tradeClose', rng, { DID: did, TAG: tagOf(t.ticker) }, { ...moodRules(good), rightOrWrong: ['{stanceAside}'] }));
}

/** A pool manager's trade for its fund, as pools/plan.ts plans it. */
export type TPoolTradeTopic =
  | { kind: 'open'; ticker: string; side: 'long' | 'short'; leverage: number; reason: string | null }
  | { kind: 'close'; ticker: string; side: 'long' | 'short'; pnl: number }
  | { kind: 'buy'; outcome: 'YES' | 'NO'; questionNumber: number; price: number };

/**
 * The post announcing a pool's trade, in its manager's voice: the anchor names the trade exactly
 * ("Added a 3x long on $ORBT to Reed Macro Fund", "Took profit on our $ORBT long in …: +12.5",
 * "Reed Macro Fund bought YES on question #12 at 41¢"), the rest is the grammar's.
 */
export function renderPoolTradePost(manager: Pick<TSpeaker, 'username' | 'role'>, poolName: string, t: TPoolTradeTopic, rng: TRng): string {
  const round2 = (x: number) => Math.floor(x * 100) / 100;
  if (t.kind === 'open') {
    const did = `${rng.pick(['Added a', 'Put on a', 'Opened a'])} ${t.leverage}x ${t.side} on $${t.ticker} ${rng.pick(['to', 'for', 'in'])} ${poolName}`;
    const facts = { DID: did, TAG: tagOf(t.ticker), WHY: t.reason ? `after "${clip(t.reason, 90)}"` : '' };
    return fitPost(speak(manager, 'poolOpen', rng, facts, { ...moodRules(t.side === 'long'), rightOrWrong: ['{stanceAside}'] }));
  }
  if (t.kind === 'close') {
    const did = t.pnl >= 0 ? `Took profit on our $${t.ticker} ${t.side} in ${poolName}: +${round2(t.pnl)}` : `Cut the $${t.ticker} ${t.side} in ${poolName} at ${round2(t.pnl)}`;
    return fitPost(speak(manager, 'poolClose', rng, { DID: did, TAG: tagOf(t.ticker) }, { ...moodRules(t.pnl >= 0), rightOrWrong: [t.pnl >= 0 ? '{right}' : '{wrong}'] }));
  }
  const did = `${poolName} bought ${t.outcome} on question #${t.questionNumber} at ${Math.round(t.price * 100)}¢`;
  return fitPost(speak(manager, 'poolBuy', rng, { DID: did }, { ...moodRules(true), leanAdj: ['{cheap}'] }));
}

// ---------------------------------------------------------------------------------------------
// Replies

/** The first $TICKER or #tag of a text, so a reply can refer to what the post was about. */
export function subjectOf(content: string): string | null {
  const m = content.match(/\$([A-Z]{2,6})\b/) ?? content.match(/#([\p{L}\p{N}_]{2,30})/u);
  return m ? m[1]! : null;
}

/** A reply in the speaker's voice to a post by `author`; always at least 10 characters. */
export function renderReply(speaker: TSpeaker, post: { authorUsername: string; content: string }, rng: TRng): string {
  const subject = subjectOf(post.content);
  const subj = subject ? (/^[A-Z]{2,6}$/.test(subject) ? `$${subject}` : `#${subject}`) : '';
  return fitReply(speak(speaker, 'reply', rng, { U: `@${post.authorUsername}`, SUBJ: subj }, moodRules(rng.chance(0.5))));
}

/**
 * A reply from one NPC to another who holds the other side (a YES holder answering a NO holder, a
 * long a short): it names both sides, in the speaker's voice.
 */
export function renderRebuttal(speaker: TSpeaker, post: { authorUsername: string; subject: string; mySide: string; theirSide: string }, rng: TRng): string {
  const facts = { U: `@${post.authorUsername}`, SUBJ: post.subject, MYSIDE: post.mySide, THEIRSIDE: post.theirSide };
  return fitReply(speak(speaker, 'rebut', rng, facts, moodRules(rng.chance(0.5))));
}

/** A short quote for a share, or null for a plain repost. */
export function renderShareQuote(speaker: TSpeaker, rng: TRng): string | null {
  return rng.chance(0.5) ? clip(speak(speaker, 'quote', rng, {}, moodRules(true)), 200) : null;
}
