/**
 * The storyline a game question is born with (issue 34). Pure: no I/O, no clock; every draw
 * comes from the rng passed in, so the same seed and question give the same story.
 *
 * A story has a hidden plan: its truth (the draw of an event question; null for a price or
 * versus question, which the world's prices decide), its insiders (who know and hint at it), its
 * deceivers (who point away), when uncertainty peaks (mid-way) and when clarity begins (before
 * the end). Its beats land at planned game times over the question's life:
 * - an event question drawn YES: the clarity comes before its event (the fulfilling news itself
 *   is the news step's, at eventAt: never made here);
 * - drawn NO: denials and filings that point NO near the end;
 * - a price or versus question: a fundamental shock (a `result` or `filing` beat with a signed
 *   impact of 2–6 % on the organization's fundamental value, its sign 50/50); insiders hint at its
 *   side before it lands, deceivers the other way.
 * Each beat by an actor with a direction is also a call: a probability (insider 0.75–0.9 toward
 * the truth or the shock's side, a deceiver the mirror, an analyst the odds ± 0.15).
 * Beats never say "bought", "sold", "opened", "closed" (reserved for posts that report trades).
 */
import type { TQuestionOdds } from '../outcomes';
import type { TRng } from '../rng';

export const BEAT_KINDS = ['rumour', 'leak', 'denial', 'filing', 'result', 'hint', 'misdirection', 'analysis'] as const;
export type TBeatKind = (typeof BEAT_KINDS)[number];
export const BEAT_ROLES = ['press', 'company', 'insider', 'deceiver', 'analyst'] as const;
export type TBeatRole = (typeof BEAT_ROLES)[number];
export const THEMES = ['earnings', 'product', 'deal', 'contract', 'scandal', 'regulation', 'leadership', 'market', 'rivalry'] as const;
export type TTheme = (typeof THEMES)[number];
export type TSide = 'YES' | 'NO';

/** Any question rule (lib/game/world-rules.ts TQuestionRule, and kinds added later): only `event` knows its truth. */
export type TStoryRule = { kind: string; organizationId: string; eventKind?: string | null; actorId?: string | null; comparison?: 'above' | 'below' | string | null; rivalOrganizationId?: string | null };

export type TStoryInput = {
  text: string;
  rule: TStoryRule;
  odds: TQuestionOdds | null;
  createdAt: Date;
  resolutionDate: Date;
  org: { id: string; name: string; ticker: string };
  /** Other organizations the story may name (a versus question's rival). */
  others?: readonly { id: string; name: string; ticker: string }[];
  actors: readonly { id: string; name: string; organizationId: string | null }[];
};

export type TPlannedBeat = {
  seq: number;
  at: Date;
  kind: TBeatKind;
  headline: string;
  body: string;
  actorId: string | null;
  role: TBeatRole;
  direction: TSide | null;
  /** Whether it points to the truth; null when the truth is the world's (price, versus) or it points nowhere. */
  truthful: boolean | null;
  /** Signed push on the organization's fundamental value (0.04 = +4 %). */
  impact: number;
  /** The P(YES) the actor states (a call), null for press and company beats. */
  probability: number | null;
};

export type TStoryPlan = {
  insiders: string[];
  deceivers: string[];
  analysts: string[];
  peakAt: string;
  clarityAt: string;
  /** A price or versus question's fundamental shock: its signed impact and the side it favours. */
  shock: { impact: number; side: TSide; seq: number } | null;
};

export type TPlannedStoryline = {
  title: string;
  theme: TTheme;
  truth: TSide | null;
  plan: TStoryPlan;
  beats: TPlannedBeat[];
};

const THEME_OF_EVENT: Record<string, TTheme> = {
  earnings_beat: 'earnings',
  earnings_miss: 'earnings',
  product_launch: 'product',
  partnership: 'deal',
  contract_win: 'contract',
  scandal: 'scandal',
  regulatory_probe: 'regulation',
  executive_statement: 'leadership',
};

export function themeOf(rule: TStoryRule): TTheme {
  if (rule.kind === 'event') return THEME_OF_EVENT[rule.eventKind ?? ''] ?? 'leadership';
  if (rule.kind === 'price') return 'market';
  return 'rivalry';
}

const other = (s: TSide): TSide => (s === 'YES' ? 'NO' : 'YES');
const clamp = (x: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, x));
const round4 = (x: number) => Math.round(x * 10_000) / 10_000;

// ---------------------------------------------------------------------------------------------
// Words. A beat's text is an opener (by kind) + a claim (by what it points to) + a closer, each
// with several phrasings, filled with the story's names: many distinct shapes.
// ---------------------------------------------------------------------------------------------

/** What an event question asks about, as a noun phrase. */
const TOPICS: Record<TTheme, readonly string[]> = {
  earnings: ['an earnings beat', 'a blowout quarter', 'numbers above consensus', 'a beat on the quarter', 'a strong print', 'a top-line beat', 'upbeat guidance', 'record revenue'],
  product: ['the next launch', 'a new flagship', 'the product reveal', 'the launch everyone is waiting for', 'a new release', 'the big unveiling', 'the next-gen device', 'a surprise launch'],
  deal: ['a partnership', 'an alliance', 'the rumoured tie-up', 'a strategic deal', 'a joint venture', 'a signed partnership', 'a new ally', 'the handshake deal'],
  contract: ['a major contract', 'the big customer win', 'that contract award', 'a landmark order', 'a government contract', 'a multi-year deal', 'the tender win', 'a fat new order'],
  scandal: ['a scandal', 'the embarrassing revelations', 'a blow-up over conduct', 'damaging leaks', 'a public embarrassment', 'an ugly exposé', 'a whistleblower story', 'a reputational mess'],
  regulation: ['a regulatory probe', 'an inquiry from the regulators', 'an antitrust review', 'official scrutiny', 'a formal investigation', 'a subpoena', 'a watchdog review', 'a compliance probe'],
  leadership: ['a public statement', 'a big speech', 'an on-the-record comment', 'a statement from the top', 'a keynote', 'an interview', 'a long thread from the boss', 'a press appearance'],
  market: ['the share price', 'the valuation', 'the stock', 'where the price lands'],
  rivalry: ['the head-to-head', 'the race between the two', 'who comes out ahead', 'the rivalry'],
};

type TLean = 'yes' | 'no' | 'up' | 'down' | 'none';

// {org} name, {ticker}, {topic}, {rival}
const CLAIMS: Record<TLean, readonly string[]> = {
  yes: [
    '{topic} for {org} is closer than the market thinks',
    '{topic} at {org} looks all but locked in',
    'the pieces for {topic} are already in place at {org}',
    'expect {topic} from {org} well before the deadline',
    'for {org}, {topic} is a matter of when, not if',
    'people inside {org} are quietly preparing for {topic}',
    'the calendar at {org} has room for exactly one thing: {topic}',
    '{org} has been lining up {topic} for weeks',
    'everything I hear says {topic} is coming at {org}',
    'the odds of {topic} at {org} are badly underpriced',
    'watch for {topic} from {org} sooner than anyone says',
    'a date for {topic} has been pencilled in at {org}',
    'suppliers to {org} are acting like {topic} is set',
    'the folks who would know at {org} are smiling about {topic}',
    'I would be stunned if {org} missed out on {topic}',
    'the paperwork for {topic} at {org} is basically done',
  ],
  no: [
    '{topic} at {org} is not happening this time',
    '{topic} for {org} has stalled behind the scenes',
    "there is no sign of {topic} at {org} before the deadline",
    '{org} is nowhere near {topic}, whatever the chatter says',
    'the talk of {topic} at {org} is mostly noise',
    'nobody at {org} is working toward {topic} right now',
    '{topic} at {org}? Not on this timeline',
    'the plans for {topic} at {org} were shelved a while ago',
    "I'd fade any story about {topic} at {org}",
    'the market is overpricing {topic} at {org}',
    'the people who would know at {org} shrug at {topic}',
    'budgets at {org} leave no room for {topic}',
    '{org} has bigger fires to fight than {topic}',
    'every timeline for {topic} at {org} has slipped past the deadline',
    'I would be stunned if {topic} landed at {org} in time',
    'the whole {topic} angle at {org} is a story for next year',
  ],
  up: [
    "{org}'s underlying business is stronger than the tape says",
    '${ticker} has real upside from here',
    'the fundamentals at {org} are quietly improving',
    '{org} is about to surprise people to the upside',
    'demand for what {org} makes is running hot',
    'the next numbers out of {org} should lift ${ticker}',
    '${ticker} is cheap for what {org} is about to show',
    'margins at {org} are better than anyone models',
    '{org} has good news in the pipeline for ${ticker}',
    "{org} looks set to pull ahead of {rival}",
    'the order book at {org} keeps filling up',
    'the next quarter at {org} will make people look twice',
    'hiring at {org} tells you where this is going: up',
    'I see a re-rating coming for ${ticker}',
  ],
  down: [
    "{org}'s underlying business is weaker than the tape says",
    '${ticker} is priced for a story that is not there',
    'the fundamentals at {org} are quietly slipping',
    '{org} is heading for an unpleasant surprise',
    'orders at {org} are softer than the guidance implies',
    'the next numbers out of {org} should weigh on ${ticker}',
    '${ticker} looks expensive for what {org} will show',
    'costs at {org} are eating the margin',
    '{org} has a problem nobody is pricing into ${ticker}',
    '{rival} looks set to leave {org} behind',
    'the order book at {org} is thinning out',
    'the next quarter at {org} will disappoint people',
    'a hiring freeze at {org} tells you where this is going: down',
    'I see a de-rating coming for ${ticker}',
  ],
  none: [
    'something is brewing around {topic} at {org}',
    'there is chatter about {topic} at {org}',
    'a lot of people are suddenly asking about {topic} at {org}',
    'the mood around {org} has shifted this week',
    '{org} has gone unusually quiet about {topic}',
    "questions about {topic} keep coming up around {org}",
    'expect some movement around ${ticker}',
    'whispers about {org} are getting louder',
    'a few desks are asking what {org} is up to',
    'the message boards are full of {topic} talk about {org}',
    'someone keeps asking about {topic} at {org}',
    'there is a buzz around ${ticker} and nobody knows why',
    '{org} cancelled a conference slot, and people noticed',
    'phones at {org} are ringing more than usual',
  ],
};

const CALL_OPENERS: readonly string[] = [
  "Can't say much, but",
  'Hearing from people close to {org}:',
  'Take this how you like:',
  'Small birds tell me',
  'Not saying how I know, but',
  'A friendly word on {org}:',
  'If you follow ${ticker}, listen:',
  'Quietly:',
  'Trust me on this one:',
  'Everyone has this backwards:',
  'Let me save you some money:',
  'Reality check on {org}:',
  'The crowd is wrong again:',
  'Calling it now:',
  'Sorry to spoil the party:',
  'Hot take on ${ticker}:',
];

const OPENERS: Record<TBeatKind, readonly string[]> = {
  rumour: ['Word on the street:', 'Unconfirmed reports say', 'Trading desks are whispering that', 'Rumour mill:', 'Overheard near the exchange:', 'Several sources hint that'],
  leak: ['A leaked memo suggests', 'Documents seen by reporters indicate', 'An internal slide deck, now circulating, says', 'Leaked emails point one way:', 'A draft document suggests', 'According to a leaked briefing,'],
  denial: ['{org} denies it:', 'A spokesperson for {org} pushed back:', '{org} says the reports are wrong:', 'Official line from {org}:', '{org} issued a flat denial:', 'In a short statement, {org} said'],
  filing: ['A new filing from {org} shows', 'Regulatory paperwork from {org} reveals', 'Fine print in the latest {org} filing says', 'A registry filing by {org} indicates', 'Buried in a {org} disclosure:', 'Paperwork lodged by {org} suggests'],
  result: ['{org} reports:', 'Fresh figures from {org}:', 'Results are in at {org}:', 'The latest update from {org}:', '{org} released numbers today:', 'Just published by {org}:'],
  hint: CALL_OPENERS,
  misdirection: CALL_OPENERS,
  analysis: ['My read after running the numbers:', 'Model update on {org}:', 'Base rates say', 'Looking at the history,', 'Spreadsheet says', 'On balance,', 'Weighing it all up,', 'Quick analysis of ${ticker}:'],
};

const CLOSERS: readonly string[] = [
  'Make of it what you will.',
  'Your call.',
  'We will know soon enough.',
  'Not advice.',
  'Watch this space.',
  'Time will tell.',
  'Mark my words.',
  'Remember who said it.',
  'Draw your own conclusions.',
  'Stay sharp.',
  'Screenshot this.',
  'Bookmark it.',
  'You heard it here.',
  'Do your own homework.',
  'Just saying.',
  'Proceed accordingly.',
  'Ask me again next week.',
  'No more from me for now.',
  'Happy to be proven wrong.',
  'Not a popular view, I know.',
  'Sleep on it.',
  'The rest is noise.',
  'More when I can share it.',
  'Tick tock.',
];

/** Sentence starters now and then, so two posts of one template rarely share their first words. */
const LEADS: readonly string[] = [
  'Honestly:', 'Frankly:', 'Look.', 'For what it is worth:', 'To be clear:', 'Short version:', 'Okay.', 'Right.', 'Heads up.', 'Fair warning:',
  'Between us:', 'Real talk:', 'Noted:', 'Small thing.', 'Again:', 'Update:', 'One more thing.', 'Worth saying:', 'So.', 'Well.',
];

/** A call's words: a verb part and a figure part ({p} the percentage). */
const CALL_HEADS: readonly string[] = ['I put', "I'd put", 'I have', 'Pencil in', 'My sheet puts', 'Personally I see', 'My gut says', 'I land on', 'Count me at', 'Mark me down for', 'I lean', 'I sit at'];
const CALL_TAILS: readonly string[] = ['YES at {p}%.', '{p}% on YES.', 'the chance at {p}%.', 'the odds near {p}%.', 'about {p}% YES.', '{p}% for a YES.', 'YES around {p}%.', 'roughly {p}%, YES side.'];

/** Words swapped for a synonym at random (never a word reserved for trade posts). */
const SYNONYMS: Record<string, readonly string[]> = {
  market: ['market', 'crowd', 'tape', 'room', 'consensus'],
  closer: ['closer', 'nearer', 'much closer'],
  looks: ['looks', 'seems', 'appears', 'feels'],
  quietly: ['quietly', 'discreetly', 'steadily', 'silently', 'slowly'],
  expect: ['expect', 'look for', 'count on', 'watch for', 'brace for'],
  deadline: ['deadline', 'cutoff', 'date', 'expiry', 'final bell'],
  stronger: ['stronger', 'healthier', 'sturdier', 'better'],
  weaker: ['weaker', 'shakier', 'softer', 'flimsier'],
  numbers: ['numbers', 'figures', 'results', 'prints'],
  sign: ['sign', 'hint', 'trace', 'whiff'],
  noise: ['noise', 'chatter', 'hot air', 'fluff', 'static'],
  people: ['people', 'folks', 'staff', 'a few people'],
  preparing: ['preparing', 'getting ready', 'gearing up', 'lining up'],
  weeks: ['weeks', 'a while', 'months', 'some time'],
  everything: ['everything', 'all', 'every signal', 'each source'],
  badly: ['badly', 'seriously', 'clearly', 'heavily'],
  underpriced: ['underpriced', 'undervalued', 'too cheap', 'mispriced'],
  overpricing: ['overpricing', 'overrating', 'overestimating', 'overvaluing'],
  happening: ['happening', 'coming', 'landing', 'on the cards'],
  stalled: ['stalled', 'stuck', 'frozen', 'gone cold'],
  shelved: ['shelved', 'parked', 'dropped', 'put on ice'],
  fundamentals: ['fundamentals', 'basics', 'underlying numbers', 'core business'],
  improving: ['improving', 'getting better', 'turning up', 'firming'],
  slipping: ['slipping', 'eroding', 'sagging', 'fading'],
  surprise: ['surprise', 'shock', 'twist', 'jolt'],
  unpleasant: ['unpleasant', 'nasty', 'ugly', 'rude'],
  demand: ['demand', 'appetite', 'interest'],
  hot: ['hot', 'strong', 'ahead of plan'],
  cheap: ['cheap', 'undervalued', 'a bargain'],
  expensive: ['expensive', 'overvalued', 'rich', 'stretched'],
  margins: ['margins', 'profits', 'unit economics'],
  problem: ['problem', 'headache', 'issue', 'hole'],
  chatter: ['chatter', 'talk', 'buzz', 'murmuring'],
  brewing: ['brewing', 'stirring', 'building', 'afoot'],
  suddenly: ['suddenly', 'all at once', 'lately', 'this week'],
  whispers: ['whispers', 'murmurs', 'rumblings', 'mutterings'],
  louder: ['louder', 'harder to ignore', 'more frequent'],
  unusually: ['unusually', 'oddly', 'strangely', 'notably'],
  movement: ['movement', 'action', 'volatility', 'fireworks'],
  suggests: ['suggests', 'indicates', 'implies', 'hints'],
  wrong: ['wrong', 'mistaken', 'off base', 'inaccurate'],
  latest: ['latest', 'newest', 'most recent'],
  today: ['today', 'this morning', 'this afternoon', 'just now'],
  real: ['real', 'genuine', 'serious', 'plenty of'],
  upside: ['upside', 'room to run', 'headroom'],
};
const SYNONYM_RE = new RegExp(`\\b(${Object.keys(SYNONYMS).join('|')})\\b`, 'g');
const vary = (rng: TRng, text: string) => text.replace(SYNONYM_RE, (m) => rng.pick(SYNONYMS[m]!));


/** Insiders and deceivers sound alike: the same headlines and openers (the roles are hidden until the end). */
const CALL_HEADLINES: readonly string[] = ['A quiet word on {org}', 'A confident take on {topic}', 'Bold view on ${ticker}', 'Someone is sure about {org}', 'A nudge on ${ticker}', 'Strong words on {topic}'];

const HEADLINES: Record<TBeatKind, readonly string[]> = {
  rumour: ['Rumours swirl around {org}', 'Chatter builds over {org}', 'Whispers about {topic} at {org}', 'Speculation grows around ${ticker}'],
  leak: ['Leak hints at {org} plans', 'Internal papers surface at {org}', 'Leaked memo on {topic} at {org}', 'Documents shed light on {org}'],
  denial: ['{org} rejects the reports', '{org} pushes back on speculation', '{org} denies {topic}', 'No comment becomes a denial at {org}'],
  filing: ['{org} files new paperwork', 'Filing sheds light on {org}', 'Disclosure from {org} moves ${ticker}', '{org} filing draws attention'],
  result: ['{org} posts new figures', '{org} numbers surprise', 'Fresh results from {org}', '{org} updates investors'],
  hint: CALL_HEADLINES,
  misdirection: CALL_HEADLINES,
  analysis: ['Analysis: {org} and {topic}', 'The numbers on {org}', 'A model view of ${ticker}', 'Weighing up {topic}'],
};

const TITLES: readonly string[] = ['The {org} question', '{org}: {topic}', 'Inside the {org} story', 'What comes next for {org}', 'Watching ${ticker}', 'The {topic} saga at {org}'];

type TWords = { org: string; ticker: string; topic: string; rival: string };
const fill = (s: string, w: TWords) => s.replaceAll('{org}', w.org).replaceAll('{ticker}', w.ticker).replaceAll('{topic}', w.topic).replaceAll('{rival}', w.rival);
/** The organization as a text names it: its name, its first word, its ticker, or a plain noun (a claim's every mention drawn anew). */
const orgRef = (rng: TRng, w: TWords) => {
  const u = rng.next();
  if (u < 0.45) return w.org;
  if (u < 0.6) return w.org.split(' ')[0]!;
  if (u < 0.8) return `$${w.ticker}`;
  return rng.pick(['the company', 'the firm', 'management', 'that team', 'the outfit', 'the business']);
};
const fillVaried = (rng: TRng, s: string, w: TWords) => fill(s.replace(/\{org\}/g, () => orgRef(rng, w).replaceAll('{', '')), w);
const capitalise = (s: string) => (s ? s[0]!.toUpperCase() + s.slice(1) : s);

/** A beat's text: its headline and body (the post's or the news item's words). */
function writeBeat(rng: TRng, kind: TBeatKind, lean: TLean, w: TWords, probability: number | null, impact: number) {
  const words = { ...w, topic: rng.pick(TOPICS[w.topic as TTheme] ?? [w.topic]) };
  const opener = capitalise(fillVaried(rng, rng.pick(OPENERS[kind]), words));
  // A rival is only named when there is one.
  const claims = CLAIMS[lean].filter((c) => w.rival || !c.includes('{rival}'));
  let claim = fillVaried(rng, rng.pick(claims), words);
  if (opener.endsWith(':')) claim = capitalise(claim);
  let body = `${opener} ${claim}.`;
  if (impact !== 0) {
    const pct = (Math.abs(impact) * 100).toFixed(1);
    body += rng.pick([` The effect on value: ${impact > 0 ? '+' : '-'}${pct}%.`, ` That is worth about ${pct}% ${impact > 0 ? 'more' : 'less'} to ${w.org}.`, ` Roughly a ${pct}% ${impact > 0 ? 'lift' : 'hit'} to the fundamentals.`]);
  }
  if (probability !== null) body += ` ${rng.pick(CALL_HEADS)} ${rng.pick(CALL_TAILS).replace('{p}', String(Math.round(probability * 100)))}`;
  if (rng.chance(0.6)) body += ' ' + rng.pick(CLOSERS);
  body = vary(rng, body);
  if (rng.chance(0.4)) body = `${rng.pick(LEADS)} ${body}`;
  return { headline: fill(rng.pick(HEADLINES[kind]), words), body: body.replace(/\s+/g, ' ').trim() };
}

// ---------------------------------------------------------------------------------------------
// The plan.
// ---------------------------------------------------------------------------------------------

type TDraft = { frac: number; kind: TBeatKind; role: TBeatRole; direction: TSide | null; impact?: number; ofShock?: boolean };

/** Distinct people for the roles: insiders first from the organization, then the rest. */
function castRoles(rng: TRng, input: TStoryInput) {
  const pool = [...input.actors];
  const take = (prefer: (a: (typeof pool)[number]) => boolean) => {
    if (!pool.length) return null;
    const preferred = pool.filter(prefer);
    const a = rng.pick(preferred.length ? preferred : pool);
    pool.splice(pool.indexOf(a), 1);
    return a.id;
  };
  const insiders: string[] = [];
  const deceivers: string[] = [];
  const analysts: string[] = [];
  const ins = take((a) => a.organizationId === input.org.id);
  if (ins) insiders.push(ins);
  const dec = take((a) => a.organizationId !== input.org.id);
  if (dec) deceivers.push(dec);
  const ana = take((a) => a.organizationId !== input.org.id);
  if (ana) analysts.push(ana);
  if (rng.chance(0.35)) {
    const more = take((a) => a.organizationId === input.org.id);
    if (more) insiders.push(more);
  }
  return { insiders, deceivers, analysts };
}

/**
 * The storyline of a new question. Beats lie in [createdAt, end) in order, end the resolution
 * date (a drawn YES: its event's moment, the clarity before it), 4 to 9 of them.
 */
export function planStoryline(rng: TRng, input: TStoryInput): TPlannedStoryline {
  const theme = themeOf(input.rule);
  const start = input.createdAt.getTime();
  const isEvent = input.rule.kind === 'event';
  const truth: TSide | null = isEvent ? (input.odds?.outcome ?? null) : null;
  const eventAt = truth === 'YES' && input.odds?.eventAt ? input.odds.eventAt.getTime() : null;
  const end = Math.max(start, Math.min(input.resolutionDate.getTime(), eventAt ?? Infinity));
  const span = end - start;
  const at = (f: number) => new Date(Math.min(end - (span > 0 ? 1 : 0), start + Math.floor(clamp(f, 0, 1) * span)));
  const odds = input.odds?.probability ?? 0.5;
  const cast = castRoles(rng.fork('cast'), input);
  const rival = input.others?.find((o) => o.id === input.rule.rivalOrganizationId) ?? null;

  // The side the hidden knowledge favours: the truth, or the shock's side.
  let shock: TStoryPlan['shock'] = null;
  let known: TSide | null = truth;
  let shockImpact = 0;
  if (!isEvent) {
    const up = rng.chance(0.5);
    shockImpact = round4((up ? 1 : -1) * rng.float(0.02, 0.06));
    // Good news for the organization makes "above" and "X beats Y" more likely, "below" less.
    known = (up ? 1 : -1) * (input.rule.comparison === 'below' ? -1 : 1) > 0 ? 'YES' : 'NO';
  }
  const peak = rng.float(0.4, 0.6);
  const clarity = rng.float(Math.max(peak + 0.08, 0.62), 0.85);

  const drafts: TDraft[] = [];
  drafts.push({ frac: rng.float(0.02, 0.2), kind: 'rumour', role: 'press', direction: null });
  if (cast.analysts.length) drafts.push({ frac: rng.float(0.15, peak - 0.05), kind: 'analysis', role: 'analyst', direction: null });
  if (cast.insiders.length) drafts.push({ frac: rng.float(0.25, peak), kind: 'hint', role: 'insider', direction: known });
  if (cast.deceivers.length) drafts.push({ frac: rng.float(peak - 0.1, peak + 0.05), kind: 'misdirection', role: 'deceiver', direction: known ? other(known) : null });
  if (rng.chance(0.6)) {
    // A leak is news: mostly true, sometimes a plant.
    const dir = known ? (rng.chance(0.75) ? known : other(known)) : null;
    drafts.push({ frac: rng.float(peak - 0.05, clarity - 0.03), kind: 'leak', role: 'press', direction: dir });
  }
  if (cast.insiders.length > 1) drafts.push({ frac: rng.float(peak, clarity - 0.02), kind: 'hint', role: 'insider', direction: known });
  if (cast.deceivers.length && rng.chance(0.4)) drafts.push({ frac: rng.float(peak, clarity), kind: 'misdirection', role: 'deceiver', direction: known ? other(known) : null });
  // Clarity.
  if (!isEvent && known) {
    drafts.push({ frac: clarity, kind: rng.chance(0.5) ? 'result' : 'filing', role: 'company', direction: known, impact: shockImpact, ofShock: true });
  } else if (truth === 'YES') {
    drafts.push({ frac: clarity, kind: rng.pick(['filing', 'leak'] as const), role: rng.chance(0.5) ? 'company' : 'press', direction: 'YES' });
  } else if (truth === 'NO') {
    drafts.push({ frac: clarity, kind: 'denial', role: 'company', direction: 'NO' });
    drafts.push({ frac: rng.float(Math.max(clarity + 0.02, 0.86), 0.97), kind: 'filing', role: 'company', direction: 'NO' });
  }
  if (cast.analysts.length && drafts.length < 9 && rng.chance(0.5)) drafts.push({ frac: rng.float(clarity, 0.98), kind: 'analysis', role: 'analyst', direction: null });
  while (drafts.length < 4) drafts.push({ frac: rng.float(0.05, 0.95), kind: 'rumour', role: 'press', direction: null });
  drafts.sort((a, b) => a.frac - b.frac);
  const kept = drafts;

  const org = input.org;
  const words: TWords = { org: org.name, ticker: org.ticker, topic: theme, rival: rival?.name ?? '' };
  const textRng = rng.fork('text');
  let shockSeq = -1;
  const beats: TPlannedBeat[] = kept.map((d, i) => {
    const actorId = d.role === 'insider' ? cast.insiders[i % cast.insiders.length]! : d.role === 'deceiver' ? cast.deceivers[0]! : d.role === 'analyst' ? cast.analysts[0]! : null;
    let probability: number | null = null;
    let direction = d.direction;
    if (d.role === 'insider' || d.role === 'deceiver') {
      const strength = rng.float(0.75, 0.9);
      probability = direction === 'YES' ? strength : direction === 'NO' ? 1 - strength : null;
    } else if (d.role === 'analyst') {
      // A neutral view: the odds with noise; once the shock or clarity landed, a little wiser.
      const late = known && d.frac >= clarity ? (known === 'YES' ? 0.1 : -0.1) : 0;
      probability = clamp(odds + rng.float(-0.15, 0.15) + late, 0.03, 0.97);
      direction = probability >= 0.5 ? 'YES' : 'NO';
    }
    if (probability !== null) probability = round4(probability);
    const lean: TLean = direction === null ? 'none' : isEvent ? (direction === 'YES' ? 'yes' : 'no') : (direction === 'YES') === (input.rule.comparison !== 'below') ? 'up' : 'down';
    const impact = d.impact ?? 0;
    if (d.ofShock) shockSeq = i + 1;
    const text = writeBeat(textRng, d.kind, lean, words, probability, impact);
    return {
      seq: i + 1,
      at: at(d.frac),
      kind: d.kind,
      headline: text.headline,
      body: text.body,
      actorId,
      role: d.role,
      direction,
      truthful: truth && direction ? direction === truth : null,
      impact,
      probability,
    };
  });
  if (!isEvent && known && shockSeq > 0) shock = { impact: shockImpact, side: known, seq: shockSeq };
  const title = capitalise(fill(textRng.pick(TITLES), { ...words, topic: textRng.pick(TOPICS[theme]) }));
  return {
    title,
    theme,
    truth,
    plan: {
      insiders: cast.insiders,
      deceivers: cast.deceivers,
      analysts: cast.analysts,
      peakAt: at(peak).toISOString(),
      clarityAt: at(clarity).toISOString(),
      shock,
    },
    beats,
  };
}
