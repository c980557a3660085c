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

export type TVoice = 'insider' | 'degen' | 'skeptic' | 'analyst' | 'hype';
const VOICES: readonly TVoice[] = ['insider', 'degen', 'skeptic', 'analyst', 'hype'];

/** Who an actor is, as far as its words go. */
export type TSpeaker = { username: string; displayName: string; role: string; orgTicker: string | null; orgName: string | null };

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

// ---------------------------------------------------------------------------------------------
// Phrase banks per voice

const BULLISH: Record<TVoice, readonly string[]> = {
  insider: ['The team is executing.', 'We are only getting started.', 'Heads down, shipping.', 'The numbers speak for themselves.'],
  degen: ['Sending it.', 'Longs eat tonight.', 'Size up or stay poor.', 'Up only, obviously.'],
  skeptic: ['Fine, I admit it looks decent.', 'Credit where it is due.', 'I hate that this is working.'],
  analyst: ['The fundamentals back it.', 'Momentum and earnings agree for once.', 'Base rates say this holds.'],
  hype: ['Absolutely massive.', 'This is the one.', 'Generational setup.', 'Cannot stop thinking about this.'],
};

const BEARISH: Record<TVoice, readonly string[]> = {
  insider: ['Noise. We stay focused.', 'Short-term wobble, long-term plan.', 'We have seen worse weeks.'],
  degen: ['Got rekt, reloading.', 'Shorts are printing.', 'Pain. Eyeing the dip anyway.'],
  skeptic: ['Told you so.', 'Nobody wants to hear it, but here we are.', 'The hype was always ahead of the product.'],
  analyst: ['The model flagged this last week.', 'Priced for perfection, delivered less.', 'Mean reversion, as usual.'],
  hype: ['Temporary. Zoom out.', 'Weak hands shaken out.', 'Discount season.'],
};

const SIGN_OFFS: Record<TVoice, readonly string[]> = {
  insider: ['More soon.', '', 'Stay tuned.'],
  degen: ['NFA.', 'LFG.', '', 'WAGMI.'],
  skeptic: ['Prove me wrong.', '', 'Receipts in a week.'],
  analyst: ['Thread later.', '', 'Calibrate accordingly.'],
  hype: ['🚀', '', 'Bookmark this.'],
};

const AGREE: Record<TVoice, readonly string[]> = {
  insider: ['Good read, and I would know.', 'This is the right take.'],
  degen: ['Based. Could not agree more.', 'Finally someone gets it.'],
  skeptic: ['Rare, but I agree with this one.', 'Hard to argue with, annoyingly.'],
  analyst: ['Consistent with the data I track.', 'Agreed, the numbers line up.'],
  hype: ['Yes! Exactly this!', 'Could not have said it better.'],
};

const DISAGREE: Record<TVoice, readonly string[]> = {
  insider: ['Respectfully, you are missing context.', 'That is not what we see from the inside.'],
  degen: ['Ngmi with that take.', 'Fading this hard.'],
  skeptic: ['Source? Because this smells like a press release.', 'Bold claim, thin evidence.'],
  analyst: ['The base rate disagrees with you.', 'Check the numbers again before posting.'],
  hype: ['Nah, you will regret this one.', 'Wrong side, friend.'],
};

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

/** A post in the speaker's voice about one topic; always within the post limit. */
export function renderPost(speaker: TSpeaker, topic: TPostTopic, rng: TRng): string {
  const voice = voiceOf(speaker);
  const signOff = rng.pick(SIGN_OFFS[voice]);
  switch (topic.kind) {
    case 'org': {
      const up = topic.price >= topic.initialPrice;
      const move = topic.initialPrice > 0 ? ((topic.price - topic.initialPrice) / topic.initialPrice) * 100 : 0;
      const own = speaker.orgTicker === topic.ticker;
      const line = rng.pick(up ? BULLISH[voice] : BEARISH[voice]);
      const lead = own
        ? rng.pick([`Proud of the ${clip(topic.name, 40)} team this week.`, `Inside ${clip(topic.name, 40)}:`, `Quick ${clip(topic.name, 40)} update.`])
        : rng.pick([`Watching $${topic.ticker} closely.`, `$${topic.ticker} at ${money(topic.price)}.`, `Thoughts on ${clip(topic.name, 40)}?`]);
      return fitPost(`${lead} ${line} $${topic.ticker} ${move >= 0 ? '+' : ''}${move.toFixed(1)}% since listing. ${tagOf(topic.ticker)} ${sectorTag(topic.sector)} ${signOff}`);
    }
    case 'holding': {
      const q = clip(topic.question, 140);
      const price = topic.side === 'YES' ? topic.yesPrice : 1 - topic.yesPrice;
      return fitPost(
        rng.pick([
          `Still holding ${topic.side} on "${q}" at ${pct(price)}. ${rng.pick(BULLISH[voice])} #predictions ${signOff}`,
          `My ${topic.side} position: "${q}" Market says ${pct(topic.yesPrice)} yes. I say the market is early. #markets`,
          `Keeping my ${topic.side} on "${q}" ${signOff} #predictions`,
        ]),
      );
    }
    case 'question': {
      const q = clip(topic.question, 150);
      // A speaker with a view states it (its trades follow it); one without guesses near the market.
      const guess = topic.yesPrice + (rng.next() - 0.5) * 0.4;
      const mine = topic.view ?? Math.min(0.95, Math.max(0.05, guess));
      return fitPost(
        rng.pick([
          `"${q}" Market: ${pct(topic.yesPrice)}. Me: ${pct(mine)}. ${mine > topic.yesPrice ? 'YES looks cheap.' : 'Leaning NO.'} #predictions`,
          `Open question: ${q} I'd put it at ${pct(mine)}. ${signOff} #markets`,
          `Everyone is sleeping on this one: "${q}" ${pct(topic.yesPrice)} is ${mine > topic.yesPrice ? 'too low' : 'too high'}. #predictions`,
        ]),
      );
    }
    case 'event': {
      const title = clip(topic.title, 120);
      const good = topic.impact >= 0;
      const tick = topic.ticker ? ` $${topic.ticker} ${tagOf(topic.ticker)}` : '';
      if (topic.aboutSelf) {
        return fitPost(`${rng.pick(['Re the news:', 'On today\'s headline:', 'Yes, it is true:'])} ${title}. ${rng.pick(good ? BULLISH[voice] : BEARISH[voice])}${tick} ${signOff}`);
      }
      return fitPost(
        rng.pick([
          `Breaking: ${title}. ${rng.pick(good ? BULLISH[voice] : BEARISH[voice])}${tick} #news`,
          `${title}. ${good ? 'Bullish' : 'Bearish'} and it is not close.${tick} ${signOff}`,
          `Just saw this: ${title}. ${rng.pick(good ? BULLISH[voice] : BEARISH[voice])}${tick}`,
        ]),
      );
    }
    case 'mention': {
      const tick = topic.ticker ? ` $${topic.ticker}` : '';
      return fitPost(
        rng.pick([
          `@${topic.other} what is your read on${tick || ' the market'} today? ${signOff}`,
          `Hey @${topic.other}, still on the other side of${tick || ' this trade'}? ${rng.pick(BULLISH[voice])}`,
          `Agree with @${topic.other} for once.${tick} ${rng.pick(BULLISH[voice])}`,
          `@${topic.other} ${rng.pick(DISAGREE[voice])}${tick}`,
        ]),
      );
    }
    case 'perp': {
      const line = rng.pick(topic.side === 'long' ? BULLISH[voice] : BEARISH[voice]);
      return fitPost(`Running a ${topic.side} on $${topic.ticker}. ${line} ${tagOf(topic.ticker)} #perps ${signOff}`);
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
  const voice = voiceOf(speaker);
  const signOff = rng.pick(SIGN_OFFS[voice]);
  if ('question' in t) {
    const q = clip(t.question, TRADE_QUESTION_CHARS);
    const line = rng.pick(t.kind === 'buy' ? BULLISH[voice] : ['Taking some off the table.', 'Locking it in.', 'Freeing up capital.']);
    return fitPost(`${t.kind === 'buy' ? 'Bought' : 'Sold'} ${t.outcome} on "${q}" ${line} #predictions ${signOff}`);
  }
  const lev = `${Number.isInteger(t.leverage) ? t.leverage : t.leverage.toFixed(1)}x`;
  const line = rng.pick((t.side === 'long') === (t.kind === 'open') ? BULLISH[voice] : BEARISH[voice]);
  return fitPost(`${t.kind === 'open' ? `Opened a ${lev}` : `Closed my ${lev}`} ${t.side} on $${t.ticker}. ${line} ${tagOf(t.ticker)} #perps ${signOff}`);
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
  const voice = voiceOf(speaker);
  const agree = rng.chance(0.55);
  const line = rng.pick(agree ? AGREE[voice] : DISAGREE[voice]);
  const subject = subjectOf(post.content);
  const about = subject ? (/^[A-Z]{2,6}$/.test(subject) ? ` $${subject}` : ` #${subject}`) : '';
  return fitReply(
    rng.pick([
      `@${post.authorUsername} ${line}${about}`,
      `${line}${about ? ` On${about}:` : ''} ${rng.pick(agree ? BULLISH[voice] : BEARISH[voice])}`,
      `@${post.authorUsername} ${line} ${rng.pick(SIGN_OFFS[voice])}`,
    ]),
  );
}

/** A short quote for a share, or null for a plain repost. */
export function renderShareQuote(speaker: TSpeaker, rng: TRng): string | null {
  return rng.chance(0.5) ? clip(rng.pick([...AGREE[voiceOf(speaker)], 'Worth a read.', 'Saving this one.']), 200) : null;
}
