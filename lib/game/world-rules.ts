/**
 * Pure rules of the living world: which news happens (templates about organizations and actors),
 * which open questions a piece of news bears on and how it biases them, which questions the game
 * asks, and how each resolves (a price question from its ticker, an event question by the outcome
 * the world drew for it in outcomes.ts, which the news then makes true). No I/O; every draw comes
 * from the rng passed in, so the same seed, game time and world state give the same news and
 * questions.
 */
import { EVENT_KINDS, type TEventKind } from '@/db/schema/world-values';
import type { TRng } from './rng';

// The kinds of news live below lib/markets, which words the questions about them (lib/markets/describe.ts).
export { EVENT_KINDS, type TEventKind };

export type TOrgState = { id: string; name: string; ticker: string; price: number };
export type TActorState = { id: string; name: string; organizationId: string | null };

export type TPriceRule = { kind: 'price'; organizationId: string; ticker: string; comparison: 'above' | 'below'; threshold: number };
export type TEventRule = { kind: 'event'; organizationId: string; actorId: string | null; eventKind: TEventKind };
export type TQuestionRule = TPriceRule | TEventRule;
export type TOpenQuestion = { marketId: string; questionNumber: number; rule: TQuestionRule | null };

type TTemplate = {
  /** Range of the signed push on fair value. */
  impact: readonly [number, number];
  /** Made by an actor of the organization (or about it) rather than by the organization. */
  byActor: boolean;
  title: readonly string[];
  content: readonly string[];
  /** How a question asks whether this happens: "Will {org} {ask} by {date}?" */
  ask: string | null;
};

// Placeholders: {org} name, {ticker}, {actor} display name, {pct} a figure the rng draws.
const TEMPLATES: Record<TEventKind, TTemplate> = {
  earnings_beat: {
    impact: [0.02, 0.06],
    byActor: false,
    title: ['{org} beats earnings expectations', '{org} posts record quarter'],
    content: ['Revenue came in {pct}% above consensus. ${ticker} traders took notice.', '{org} raised guidance after a {pct}% jump in bookings.'],
    ask: 'report an earnings beat',
  },
  earnings_miss: {
    impact: [-0.06, -0.02],
    byActor: false,
    title: ['{org} misses earnings estimates', '{org} cuts its outlook'],
    content: ['Sales fell {pct}% short of forecasts. ${ticker} is under pressure.', 'Management blamed "temporary headwinds" for a {pct}% shortfall.'],
    ask: null,
  },
  product_launch: {
    impact: [0.01, 0.05],
    byActor: false,
    title: ['{org} launches a new flagship product', '{org} unveils its next generation'],
    content: ['Early reviewers call it {pct}% better than the last one. ${ticker} reacts.', 'The launch event drew a crowd; pre-orders are up {pct}%.'],
    ask: 'launch a new product',
  },
  partnership: {
    impact: [0.01, 0.04],
    byActor: false,
    title: ['{org} announces a strategic partnership', '{org} signs a landmark alliance'],
    content: ['The deal could add {pct}% to revenue over two years. ${ticker} climbs.', 'Both companies promise "synergies"; analysts see {pct}% upside.'],
    ask: 'announce a partnership',
  },
  contract_win: {
    impact: [0.02, 0.05],
    byActor: false,
    title: ['{org} wins a major contract', '{org} lands its biggest customer yet'],
    content: ['The multi-year contract is worth about {pct}% of annual sales.', 'A government buyer chose {org}; ${ticker} holders cheer.'],
    ask: 'win a major contract',
  },
  scandal: {
    impact: [-0.08, -0.03],
    byActor: false,
    title: ['Scandal engulfs {org}', 'Leaked memos embarrass {org}'],
    content: ['Reports allege the numbers were padded by {pct}%. ${ticker} slides.', 'Insiders describe a culture of "move fast, apologise later".'],
    ask: 'be hit by a scandal',
  },
  regulatory_probe: {
    impact: [-0.05, -0.01],
    byActor: false,
    title: ['Regulators open a probe into {org}', '{org} faces an antitrust review'],
    content: ['The inquiry could take months; ${ticker} dips {pct}%.', 'Officials want documents on pricing and data practices.'],
    ask: 'face a regulatory probe',
  },
  executive_statement: {
    impact: [-0.03, 0.04],
    byActor: true,
    title: ['{actor} speaks out on {org}', '{actor}: "{org} is just getting started"'],
    content: ['In a long thread, {actor} laid out a plan to grow {pct}% a year. ${ticker} moves.', '{actor} told reporters the roadmap is "ahead of schedule".'],
    ask: 'see {actor} make a public statement about it',
  },
};

/** Kinds a question may ask about (they have an `ask` phrase). */
export const ASKABLE_KINDS = EVENT_KINDS.filter((k) => TEMPLATES[k].ask !== null);

const fill = (s: string, v: { org: string; ticker: string; actor: string; pct: number }) =>
  s.replaceAll('{org}', v.org).replaceAll('{ticker}', v.ticker).replaceAll('{actor}', v.actor).replaceAll('{pct}', String(v.pct));

export type TPlannedEvent = {
  kind: TEventKind;
  title: string;
  content: string;
  organizationId: string;
  ticker: string;
  actorId: string | null;
  impact: number;
};

/**
 * The chance of a news event in a game minute, and of a second one: about four an hour, so the
 * feed's breaking news stays something a reader notices (it was 0.35 and 0.05: 24 an hour).
 */
export const NEWS_CHANCE = { first: 0.06, second: 0.01 } as const;
/** A tick after a gap draws the news of that many minutes, up to this many (news is cheap; trades catch up less). */
export const NEWS_CATCH_UP_MINUTES = 15;

/**
 * How many events `minutes` game minutes make (a tick: one, or its catch-up; a backfill step: its
 * length): one for sure in a quiet world (nothing in the last hour), then NEWS_CHANCE a minute.
 */
export function planEventCount(rng: TRng, quiet: boolean, minutes = 1) {
  let n = quiet ? 1 : 0;
  for (let i = 0; i < minutes; i++) n += (rng.chance(NEWS_CHANCE.first) ? 1 : 0) + (rng.chance(NEWS_CHANCE.second) ? 1 : 0);
  return n;
}

const actorFor = (rng: TRng, org: TOrgState, actors: readonly TActorState[]) => {
  const own = actors.filter((a) => a.organizationId === org.id);
  const pool = own.length ? own : actors;
  return pool.length ? rng.pick(pool) : null;
};

const render = (rng: TRng, org: TOrgState, kind: TEventKind, actor: TActorState | null): TPlannedEvent => {
  const t = TEMPLATES[kind];
  const pct = rng.int(3, 40);
  const v = { org: org.name, ticker: org.ticker, actor: actor?.name ?? `A ${org.name} spokesperson`, pct };
  const impact = Math.round(rng.float(t.impact[0], t.impact[1]) * 10_000) / 10_000;
  return {
    kind,
    title: fill(rng.pick(t.title), v),
    content: fill(rng.pick(t.content), v),
    organizationId: org.id,
    ticker: org.ticker,
    actorId: t.byActor ? (actor?.id ?? null) : null,
    impact,
  };
};

/** Whether news of `kind` about `org` (by `actor` for a statement) would fulfil one of `rules`. */
const wouldFulfil = (rules: readonly TEventRule[], org: TOrgState, kind: TEventKind, actor: TActorState | null) =>
  rules.some((r) => fulfils(r, { kind, organizationId: org.id, actorId: TEMPLATES[kind].byActor ? (actor?.id ?? null) : null }));

/** The first (organization, kind, speaker) after the given one, in a fixed order, that fulfils no reserved rule. */
const freeEvent = (orgs: readonly TOrgState[], actors: readonly TActorState[], reserved: readonly TEventRule[], from: TOrgState, fromKind: TEventKind) => {
  const o0 = orgs.indexOf(from);
  const k0 = EVENT_KINDS.indexOf(fromKind);
  for (let i = 0; i < orgs.length; i++) {
    const org = orgs[(o0 + i) % orgs.length]!;
    for (let j = 0; j < EVENT_KINDS.length; j++) {
      const kind = EVENT_KINDS[(k0 + j) % EVENT_KINDS.length]!;
      if (!TEMPLATES[kind].byActor) {
        if (!wouldFulfil(reserved, org, kind, null)) return { org, kind, actor: null };
        continue;
      }
      const own = actors.filter((a) => a.organizationId === org.id);
      const speaker = (own.length ? own : actors).find((a) => !wouldFulfil(reserved, org, kind, a));
      if (speaker) return { org, kind, actor: speaker };
    }
  }
  return null;
};

/**
 * One world event about a random organization, of a random kind. Never one that fulfils a
 * `reserved` rule: an event question whose outcome the world drew (outcomes.ts) happens only as
 * drawn, a NO never and a YES at its drawn moment (planFulfillingEvent). A reserved pick becomes
 * the next kind of news about the organization that is free (another speaker for a statement),
 * or news about the next organization; no draw is spent on that search, so the same seed makes
 * the same news whenever nothing is reserved.
 */
export function planWorldEvent(
  rng: TRng,
  // `questions` is no longer read (random news no longer seeks out open questions); kept so callers compile.
  world: { orgs: readonly TOrgState[]; actors: readonly TActorState[]; questions?: readonly TOpenQuestion[]; reserved?: readonly TEventRule[] },): TPlannedEvent | null {
  if (!world.orgs.length) return null;
  const reserved = world.reserved ?? [];
  let org = rng.pick(world.orgs);
  let kind = rng.pick(EVENT_KINDS);
  let actor = TEMPLATES[kind].byActor ? actorFor(rng, org, world.actors) : null;
  if (wouldFulfil(reserved, org, kind, actor)) {
    const free = freeEvent(world.orgs, world.actors, reserved, org, kind);
    if (!free) return null;
    ({ org, kind, actor } = free);
  }
  return render(rng, org, kind, actor);
}

/**
 * The news that fulfils an event question drawn YES, at its drawn moment: the rule's kind about its
 * organization, by its named speaker (or one of the organization's own for a statement). Null
 * when the organization is gone.
 */
export function planFulfillingEvent(rng: TRng, rule: TEventRule, world: { orgs: readonly TOrgState[]; actors: readonly TActorState[] }): TPlannedEvent | null {
  const org = world.orgs.find((o) => o.id === rule.organizationId);
  if (!org) return null;
  let actor = rule.actorId ? (world.actors.find((a) => a.id === rule.actorId) ?? null) : null;
  if (TEMPLATES[rule.eventKind].byActor && !actor) actor = actorFor(rng, org, world.actors);
  return render(rng, org, rule.eventKind, actor);
}

/**
 * Whether two event rules could be fulfilled by one event (same organization and kind, and the
 * same speaker unless one names none). The game never keeps two such questions open together: one
 * drawn YES and the other NO could not both come true.
 */
export function collides(a: TEventRule, b: TEventRule) {
  return a.organizationId === b.organizationId && a.eventKind === b.eventKind && (a.actorId === null || b.actorId === null || a.actorId === b.actorId);
}

export type TBiasPlan = { marketId: string; direction: 'YES' | 'NO'; adjustment: number };

/**
 * The open questions an event bears on and the bias it puts on each: a price question on the same
 * organization leans the way the news pushes (up favours "above"), an event question the event
 * fulfils leans strongly YES (it will resolve YES).
 */
export function relatedQuestions(
  e: TPlannedEvent,
  questions: readonly TOpenQuestion[],): { numbers: number[]; biases: TBiasPlan[]; directions: Record<number, 'YES' | 'NO'> } {
  const biases: TBiasPlan[] = [];
  const numbers: number[] = [];
  const directions: Record<number, 'YES' | 'NO'> = {};
  for (const q of questions) {
    const r = q.rule;
    if (!r || r.organizationId !== e.organizationId) continue;
    if (r.kind === 'price') {
      if (e.impact === 0) continue;
      const up = e.impact > 0;
      const direction = up === (r.comparison === 'above') ? 'YES' : 'NO';
      biases.push({ marketId: q.marketId, direction, adjustment: Math.min(1, Math.abs(e.impact) * 10) });
      numbers.push(q.questionNumber);
      directions[q.questionNumber] = direction;
    } else if (fulfils(r, e)) {
      biases.push({ marketId: q.marketId, direction: 'YES', adjustment: 0.6 });
      numbers.push(q.questionNumber);
      directions[q.questionNumber] = 'YES';
    }
  }
  return { numbers, biases, directions };
}

/**
 * The direction this tick's news implies for each question it concerns (question number → the
 * side it makes more likely). Several events on one question vote; a question the tick's news
 * pushes both ways as often gets no direction. Every trade the tick makes on a question with a
 * direction goes that way (news trades, NPC and pool buys, sales of the other side only), so the
 * question moves the way the news implies.
 */
export function newsDirections(events: readonly { directions?: Readonly<Record<number, 'YES' | 'NO'>> }[]): Map<number, 'YES' | 'NO'> {
  const net = new Map<number, number>();
  for (const e of events) {
    for (const [n, d] of Object.entries(e.directions ?? {})) net.set(Number(n), (net.get(Number(n)) ?? 0) + (d === 'YES' ? 1 : -1));
  }
  const out = new Map<number, 'YES' | 'NO'>();
  for (const [n, v] of [...net].sort((a, b) => a[0] - b[0])) if (v !== 0) out.set(n, v > 0 ? 'YES' : 'NO');
  return out;
}

/** Whether an event of this kind, organization and actor fulfils an event question's rule. */
export function fulfils(r: TEventRule, e: { kind: string; organizationId: string | null; actorId: string | null }) {
  return r.eventKind === e.kind && r.organizationId === e.organizationId && (r.actorId === null || r.actorId === e.actorId);
}

/** Active questions the game keeps open. */
export const MIN_ACTIVE_QUESTIONS = 10;
export const MAX_ACTIVE_QUESTIONS = 20;

/** How many questions to create: up to the minimum, and now and then one more below the maximum. */
export function questionsToCreate(rng: TRng, active: number) {
  if (active < MIN_ACTIVE_QUESTIONS) return MIN_ACTIVE_QUESTIONS - active;
  return active < MAX_ACTIVE_QUESTIONS && rng.chance(0.1) ? 1 : 0;
}

const DATE_LABEL = new Intl.DateTimeFormat('en-US', { weekday: 'short', month: 'short', day: 'numeric', timeZone: 'UTC' });

/** A threshold near the price with a readable number of digits. */
export function roundThreshold(x: number) {
  const digits = x >= 100 ? 0 : x >= 10 ? 1 : 2;
  const f = 10 ** digits;
  return Math.max(0.01, Math.round(x * f) / f);
}

export type TPlannedQuestion = { text: string; resolutionDate: Date; rule: TQuestionRule };

/** A question already asked: open, or created within RECENT_QUESTION_DAYS (state.ts loadRecentQuestions). */
export type TRecentQuestion = { rule: TQuestionRule | null; text: string; open?: boolean; createdAt?: Date };
/** How far back (game days) a question's text (numbers and dates masked) may not be asked again. */
export const RECENT_QUESTION_DAYS = 30;
/**
 * How far back (game days) a closed question still blocks its subject and kind (an open one always
 * does). Eight organizations with about nine kinds each are some 70 subjects: a month-long block
 * would leave the world below its 10 open questions, so the subject rests a week and its wording a
 * month.
 */
export const SUBJECT_REST_DAYS = 7;

const WEEKDAYS = /\b(mon|tue|wed|thu|fri|sat|sun)(day|sday|nesday|rsday|urday)?\b\.?/gi;
const MONTHS = /\b(jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\b\.?/gi;

/** A question's text with its numbers and dates masked: what stays is what it asks. */
export function maskQuestion(text: string) {
  return text
    .toLowerCase()
    .replace(WEEKDAYS, '@')
    .replace(MONTHS, '@')
    .replace(/\d+(?:[.,]\d+)*/g, '#')
    .replace(/\s+/g, ' ')
    .trim();
}

/** Phrasings of a price question: all ask for the price at the resolution date. */
const PRICE_PHRASINGS: readonly ((t: string, cmp: string, x: number, date: string) => string)[] = [
  (t, cmp, x, date) => `Will $${t} close ${cmp} ${x} by ${date}?`,
  (t, cmp, x, date) => `Will $${t} trade ${cmp} ${x} on ${date}?`,
  (t, cmp, x, date) => `Will the price of $${t} be ${cmp} ${x} on ${date}?`,
  (t, cmp, x, date) => `Will $${t} be priced ${cmp} ${x} when ${date} comes?`,
];
/** Phrasings of an event question: all ask whether it happens by the resolution date. */
const EVENT_PHRASINGS: readonly ((org: string, ask: string, date: string) => string)[] = [
  (org, ask, date) => `Will ${org} ${ask} by ${date}?`,
  (org, ask, date) => `Will ${org} ${ask} before ${date} is out?`,
  (org, ask, date) => `Will ${org} ${ask} no later than ${date}?`,
];
const STATEMENT_PHRASINGS: readonly ((actor: string, org: string, date: string) => string)[] = [
  (actor, org, date) => `Will ${actor} speak out on ${org} by ${date}?`,
  (actor, org, date) => `Will ${actor} speak publicly about ${org} by ${date}?`,
];

/** Same subject and kind as a recent rule: price with the same comparison, event with the same kind and actor. */
export function sameQuestionKind(a: TQuestionRule, b: TQuestionRule | null): boolean {
  if (!b || a.organizationId !== b.organizationId || a.kind !== b.kind) return false;
  if (a.kind === 'price' && b.kind === 'price') return a.comparison === b.comparison;
  if (a.kind === 'event' && b.kind === 'event') return a.eventKind === b.eventKind && a.actorId === b.actorId;
  return false;
}

/**
 * A new question for the world, resolving 1 to 7 days after `at` (on the hour): 60% "Will $T close above/below X by <date>?" (one of
 * PRICE_PHRASINGS) with X within ±3% of the current price (a 1–7 day move of a ticker whose day is ~2–3%), otherwise "Will <org> <do something>
 * by <date>?" about an event kind (by one of its actors for statements). The rng picks the
 * organization and kind; a candidate that repeats a `recent` question (same organization and kind,
 * sameQuestionKind, or the same text once numbers and dates are masked) or whose event `collides`
 * with an `open` rule is passed over for the next in a fixed order (the organizations from the
 * picked one on, each with price above, price below, then the askable event kinds). None free: null.
 */
export function planQuestion(
  rng: TRng,
  world: { orgs: readonly TOrgState[]; actors: readonly TActorState[]; at: Date; open?: readonly (TQuestionRule | null)[]; recent?: readonly TRecentQuestion[] },
): TPlannedQuestion | null {
  if (!world.orgs.length) return null;
  const days = rng.int(1, 7);
  const resolutionDate = new Date(Math.ceil((world.at.getTime() + days * 86_400_000) / 3_600_000) * 3_600_000);
  const label = DATE_LABEL.format(resolutionDate);
  const first = rng.int(0, world.orgs.length - 1);
  type TKind = 'above' | 'below' | TEventKind;
  const kinds: readonly TKind[] = ['above', 'below', ...ASKABLE_KINDS];
  const pickedKind: TKind = rng.chance(0.6) ? (rng.chance(0.5) ? 'above' : 'below') : rng.pick(ASKABLE_KINDS);
  const move = rng.float(-0.03, 0.03);
  const phrasing = rng.float(0, 1);
  const recent = world.recent ?? [];
  const masked = new Set(recent.filter((r) => r.text).map((r) => maskQuestion(r.text)));
  const build = (org: TOrgState, kind: TKind): TPlannedQuestion => {
    if (kind === 'above' || kind === 'below') {
      const threshold = roundThreshold(org.price * (1 + move));
      const say = PRICE_PHRASINGS[Math.floor(phrasing * PRICE_PHRASINGS.length)]!;
      return { text: say(org.ticker, kind, threshold, label), resolutionDate, rule: { kind: 'price', organizationId: org.id, ticker: org.ticker, comparison: kind, threshold } };
    }
    // The speaker is drawn from a fork per organization, so passing one over draws nothing else.
    const actor = TEMPLATES[kind].byActor ? actorFor(rng.fork(`actor:${org.id}`), org, world.actors) : null;
    const rule: TEventRule = { kind: 'event', organizationId: org.id, actorId: actor?.id ?? null, eventKind: kind };
    // A statement question names its speaker first: "Will Ada Vance speak out on Nexa Dynamics…?"
    const text = actor
      ? STATEMENT_PHRASINGS[Math.floor(phrasing * STATEMENT_PHRASINGS.length)]!(actor.name, org.name, label)
      : EVENT_PHRASINGS[Math.floor(phrasing * EVENT_PHRASINGS.length)]!(org.name, TEMPLATES[kind].ask!.replaceAll('{actor}', 'an executive'), label);
    return { text, resolutionDate, rule };
  };
  const free = (q: TPlannedQuestion) =>
    !(q.rule.kind === 'event' && (world.open ?? []).some((r) => r?.kind === 'event' && collides(r, q.rule as TEventRule))) &&
    !recent.some((r) => (r.open !== false || !r.createdAt || world.at.getTime() - r.createdAt.getTime() < SUBJECT_REST_DAYS * 86_400_000) && sameQuestionKind(q.rule, r.rule)) &&
    !masked.has(maskQuestion(q.text));
  const n = world.orgs.length;
  // The rng's pick first; an event that collides falls back to a price question on the same
  // organization (as before), then the fixed order.
  const at = (i: number) => world.orgs[(first + i) % n]!;
  const order: [TOrgState, TKind][] = [[at(0), pickedKind]];
  if (pickedKind !== 'above' && pickedKind !== 'below') order.push([at(0), move >= 0 ? 'above' : 'below']);
  for (let i = 0; i < n; i++) for (const k of kinds) order.push([at(i), k]);
  for (const [org, kind] of order) {
    const q = build(org, kind);
    if (free(q)) return q;
  }
  return null;
}

/**
 * The outcome of a due question: a price rule compares the ticker's price at resolution with the
 * threshold (strictly), and without that price it cannot resolve (null: never from its own
 * market); an event rule resolves by the outcome the world drew for it at creation (outcomes.ts;
 * its news follows the draw), or, for a rule without a draw (made before draws existed), YES when
 * a fulfilling event happened in the question's window. Without a rule (admin-created or seeded
 * questions, which say nothing machine-readable about the world) the market's own price decides:
 * YES at 0.5 or above.
 */
export function resolveOutcome(
  rule: TQuestionRule | null,
  facts: { price: number | null; eventHappened: boolean; yesPrice: number; drawn?: 'YES' | 'NO' | null },): 'YES' | 'NO' | null {
  if (rule?.kind === 'price') {
    if (facts.price === null) return null;
    return (rule.comparison === 'above' ? facts.price > rule.threshold : facts.price < rule.threshold) ? 'YES' : 'NO';
  }
  if (rule?.kind === 'event') return facts.drawn ?? (facts.eventHappened ? 'YES' : 'NO');
  return facts.yesPrice >= 0.5 ? 'YES' : 'NO';
}
