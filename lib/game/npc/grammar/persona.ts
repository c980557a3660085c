/**
 * An NPC's persona (issue 34): its stance (bull, bear, contrarian, quant, gossip, insider, degen),
 * its own openers, verbal tics and sign-offs, emoji or none, case style, the sectors it likes to
 * talk about, and how it takes being right or wrong, all derived deterministically from the
 * actor's username, role, personality and tier (so the seeded actors differ, and two worlds of
 * one seed agree). Its rules overlay the shared grammar (rules.ts). Pure.
 */
import { createRng } from '@/lib/game/rng';
import type { TCaseStyle, TRules } from './expand';

export type TStance = 'bull' | 'bear' | 'contrarian' | 'quant' | 'gossip' | 'insider' | 'degen';
export const STANCES: readonly TStance[] = ['bull', 'bear', 'contrarian', 'quant', 'gossip', 'insider', 'degen'];

export type TPersonaSource = { username: string; role: string; personality?: string | null; tier?: string | null };

export type TPersona = {
  stance: TStance;
  caseStyle: TCaseStyle;
  emoji: readonly string[];
  openers: readonly string[];
  signoffs: readonly string[];
  tics: readonly string[];
  /** The sectors (lower case) it talks about by preference. */
  topics: readonly string[];
  /** The persona's rules: the stance's lines and its own picks, to lay over the shared grammar. */
  rules: TRules;
  /** A sentence describing the voice (the language-model prompt uses it). */
  description: string;
};

/** The stance from the role's words, else from the personality, else by name (stable). */
export function stanceOf(s: TPersonaSource): TStance {
  const role = s.role.toLowerCase();
  if (/\b(ceo|founder|chief|director|cto|president)\b/.test(role)) return 'insider';
  if (/\b(trader|degen|crypto)\b/.test(role)) return 'degen';
  if (/\b(journalist|reporter|gossip)\b/.test(role)) return 'gossip';
  if (/\b(critic|short|skeptic)\b/.test(role)) return 'bear';
  if (/\b(fund manager|macro|contrarian)\b/.test(role)) return 'contrarian';
  if (/\b(analyst|economist|scientist|regular|quant)\b/.test(role)) return 'quant';
  if (/\b(engineer|tinkerer|manager)\b/.test(role)) return 'bull';
  const p = (s.personality ?? '').toLowerCase();
  if (/\b(hype|moon|rocket|optimis)/.test(p)) return 'bull';
  if (/\b(doom|bubble|fraud|skeptic)/.test(p)) return 'bear';
  return STANCES[createRng(`stance:${s.username}`).int(0, STANCES.length - 1)]!;
}

const OPENERS = [
  'gm.', 'thread:', 'hot take:', 'note to self:', 'quick thought:', 'ok hear me out:', 'PSA:', 'unpopular opinion:', 'calling it:', 'from the desk:',
  'market notes:', 'reminder:', 'daily musing:', 'friends,', 'folks,', 'listen up:', 'confession:', 'data point:', 'observation:', 'morning all.',
  'hello from the trenches.', 'field report:', 'for the archive:', 'mildly spicy take:', 'serious post:', 'not a drill:', 'small rant:', 'question for the group:',
  'pinning this:', 'dispatch:', 'memo:', 'brief note:', 'checking in.', 'two thoughts:', 'a thought:', 'lunch break take:', 'from the notebook:', 'overheard:',
];
const SIGNOFFS = [
  'NFA.', 'LFG.', 'WAGMI.', 'prove me wrong.', 'receipts in a week.', 'more soon.', 'stay tuned.', 'calibrate accordingly.', 'bookmark this.', 'thread later.',
  'back to work.', 'over and out.', 'that is all.', 'carry on.', 'discuss.', 'fight me.', 'stay humble.', 'stay liquid.', 'size small.', 'onward.', 'cheers.',
  'see you at resolution.', 'zoom out.', 'noted for the record.', 'dyor.', 'respect the tape.', 'trust the process.', 'good luck out there.', 'and that is the post.',
  'ciao.', 'later.', 'thoughts welcome.', 'change my mind.', 'screenshot this.', 'no further questions.', 'end of memo.', 'details in the replies.', 'stay sharp.',
];
const TICS = [
  'ngl', 'fwiw', 'tbh', 'imo', 'to be fair', 'mark my words', 'as I keep saying', 'for what it is worth', 'believe it or not', 'no notes', 'in my humble opinion',
  'respectfully', 'full stop', 'let me be clear', 'between us', 'plot twist', 'low key', 'not gonna sugarcoat it', 'as predicted', 'classic', 'wild times',
  'in this economy', 'hear me out', 'I said what I said', 'call it a hunch', 'simple as that', 'per my last post', 'if you ask me', 'surprise surprise',
];
const EMOJI_SETS: readonly (readonly string[])[] = [['🚀', '📈', '🔥'], ['📉', '🧊', '🐻'], ['🤔', '📊', '🧮'], ['👀', '☕', '🗞️'], ['🫡', '✅', '📌'], ['💎', '🙌', '⚡'], ['🌱', '🔭', '✨'], ['🎯', '📐', '🧠']];
const SECTORS = ['ai', 'quantum computing', 'biotech', 'energy', 'space', 'materials', 'media', 'robotics'];

/** What each stance says: about good and bad moves, being right and wrong, agreeing and not. */
const STANCE_RULES: Record<TStance, TRules> = {
  bull: {
    bull: ['{really} good. The trend is your friend.', 'Told you this had legs.', 'This is the start, not the top.', 'The upside case keeps getting easier to make.', 'Momentum like this does not fade quietly.', 'Best setup on the board.'],
    bear: ['A dip, not a story.', 'Shake-out. Zoom out.', 'Discount season, if you ask me.', 'Weak hands leaving is healthy.', 'One bad day does not break a trend.', 'Noise. The story is intact.'],
    right: ['Right so far, and it is {really} satisfying.', 'Called it, and I will not be humble about it.', 'The optimists win again.', 'Playing out exactly as drawn up.'],
    wrong: ['Against me for now; conviction unchanged.', 'Underwater and fine with it.', 'Early is not wrong. Mostly.', 'Pain is temporary, thesis is not.'],
    agreeLine: ['Yes! Exactly this.', 'Could not have said it better.', 'Finally someone gets it.', 'Louder for the people in the back.'],
    disagreeLine: ['Nah, you will regret this one.', 'Wrong side, friend.', 'Bold to bet against this trend.', 'Respectfully, zoom out.'],
    stanceLine: ['The trend is up and I am with it.', 'Optimism is underpriced.', 'The upside is bigger than people think.', 'Growth wins in the end.'],
    stanceAside: ['Optimism compounds.', 'Bears always sound smart until they do not.', 'The ceiling is higher than you think.', 'I like my odds.'],
  },
  bear: {
    bull: ['Fine, I admit it looks decent.', 'Credit where it is due, annoyingly.', 'I hate that this is working.', 'Enjoy it while it lasts.', 'Even a broken clock rallies.'],
    bear: ['Told you so.', 'Nobody wanted to hear it, but here we are.', 'The hype was always ahead of the product.', 'Gravity still works.', 'Priced for perfection, delivered less.', 'The cracks were always there.'],
    right: ['Right, and nobody will admit I said it first.', 'The skeptics were correct, again.', 'Vindicated, quietly.', 'Saw this one coming from a mile away.'],
    wrong: ['Wrong for now. Markets can stay silly.', 'The crowd is winning this round.', 'Early, not wrong. Probably.', 'Humbling, but the flaws are still there.'],
    agreeLine: ['Rare, but I agree with this one.', 'Hard to argue with, annoyingly.', 'Finally some realism.', 'A sober take, thank you.'],
    disagreeLine: ['Source? This smells like a press release.', 'Bold claim, thin evidence.', 'This will age badly.', 'Show me the numbers, not the vibes.'],
    stanceLine: ['Skepticism is cheap insurance.', 'The downside case is being ignored.', 'Hype does not pay dividends.', 'Somebody has to read the footnotes.'],
    stanceAside: ['Someone has to say it.', 'The footnotes tell a different story.', 'I will be here when it breaks.', 'Cynical, maybe. Wrong, rarely.'],
  },
  contrarian: {
    bull: ['When everyone is scared, I get interested.', 'The crowd hated this last week. Interesting.', 'Nobody believed it, which is why it works.', 'The least loved name keeps doing this.'],
    bear: ['Everyone loved it yesterday. That was the signal.', 'Crowded trades unwind like this.', 'The consensus got too comfortable.', 'Too many people agreed. Always a warning.'],
    right: ['Lonely and right is a fine place to be.', 'Against the herd and ahead of it.', 'Thirty years of this, and it still works.', 'Consensus was wrong, as usual.'],
    wrong: ['The herd is winning this leg. Legs end.', 'Wrong so far; the crowd usually tires first.', 'Uncomfortable. That is usually the point.', 'Being early is the cost of being contrarian.'],
    agreeLine: ['Unusually, I agree.', 'A contrarian take I can respect.', 'Good. Nobody else is saying it.', 'Agreed, and that makes me nervous.'],
    disagreeLine: ['This is exactly what everyone thinks. Fade it.', 'Consensus in a trench coat.', 'Popular view. Hence wrong.', 'You and the whole timeline agree. Suspicious.'],
    stanceLine: ['The crowd is leaning too hard.', 'Fading the consensus, again.', 'When a view is this popular, the price already has it.', 'Comfort is expensive.'],
    stanceAside: ['Popular is not the same as right.', 'I have called this top twice. Correctly.', 'The herd is loud today.', 'Discomfort is a signal.'],
  },
  quant: {
    bull: ['The fundamentals back it.', 'Momentum and earnings agree for once.', 'Base rates say this holds.', 'The numbers line up.', 'Signal over noise, and the signal is up.'],
    bear: ['The model flagged this last week.', 'Mean reversion, as usual.', 'The data was softer than the story.', 'Regression to the mean is undefeated.', 'Variance was always going to show up.'],
    right: ['Calibrated and correct, the best combination.', 'The estimate held up. Nice.', 'Model one, vibes nil.', 'Scoring myself: on target.'],
    wrong: ['Miss. Updating the prior.', 'Off this time; that is what the error bars are for.', 'One miss is noise; I will check the calibration.', 'Wrong, logged, updating.'],
    agreeLine: ['Consistent with the data I track.', 'Agreed, the numbers line up.', 'Same estimate here, roughly.', 'My model says the same, within error.'],
    disagreeLine: ['The base rate disagrees with you.', 'Check the numbers again.', 'That is a narrative, not an estimate.', 'Your sample size is one.'],
    stanceLine: ['The base rate is clear.', 'The expected value says so.', 'The spread between price and probability is the trade.', 'Probability first, opinion second.'],
    stanceAside: ['Calibration is a personality trait.', 'Brier scores do not lie.', 'Show your error bars.', 'Expected value, not hope.'],
  },
  gossip: {
    bull: ['Hearing good things, and now we see why.', 'The mood in the building was upbeat; now it shows.', 'Sources were right on this one.', 'The chatter was positive for days.'],
    bear: ['People have been whispering about this for weeks.', 'The rumours were not rumours.', 'Something is off and people are talking.', 'Not the first bad headline, not the last.'],
    right: ['Told you the chatter was worth listening to.', 'Scoop confirmed.', 'My sources deserve a raise.', 'The story broke the way I said.'],
    wrong: ['My sources were off this time. It happens.', 'Bad tip. Noted who gave it.', 'Not the story I expected. Still digging.', 'Wrong read; the next one will be better.'],
    agreeLine: ['Same thing I am hearing.', 'Matches what my sources say.', 'This tracks with the chatter.', 'Heard the same over coffee.'],
    disagreeLine: ['That is not what people are saying.', 'Who told you that?', 'My sources say the opposite.', 'Sounds like a press office wrote this.'],
    stanceLine: ['The whispers point one way.', 'People close to this are nervous.', 'The story is bigger than the headline.', 'Follow the chatter.'],
    stanceAside: ['More on this soon.', 'Watch this space.', 'DMs open.', 'Not everything is in the press release.'],
  },
  insider: {
    bull: ['The team is executing.', 'We are only getting started.', 'Heads down, shipping.', 'The numbers speak for themselves.', 'Proud of what the team has built.'],
    bear: ['Noise. We stay focused.', 'Short-term wobble, long-term plan.', 'We have seen worse weeks.', 'The plan does not change on one headline.'],
    right: ['Exactly what we planned for.', 'Execution over narrative.', 'The long view keeps paying.', 'This is what focus looks like.'],
    wrong: ['Not our best week. We learn and move.', 'We own the miss.', 'Lessons learned, plan intact.', 'Setbacks are part of building.'],
    agreeLine: ['Good read, and I would know.', 'This is the right take.', 'Spot on from where I sit.', 'Accurate, from the inside.'],
    disagreeLine: ['Respectfully, you are missing context.', 'That is not what we see from the inside.', 'The outside view misses a lot here.', 'Not how it works, but nice try.'],
    stanceLine: ['Building beats talking.', 'The long view wins.', 'Execution is the whole game.', 'We focus on what we control.'],
    stanceAside: ['More soon.', 'Cannot say more yet.', 'The roadmap is the roadmap.', 'Stay tuned.'],
  },
  degen: {
    bull: ['Sending it.', 'Longs eat tonight.', 'Size up or stay poor.', 'Up only, obviously.', 'Absolute face-melter.', 'Green candles for breakfast.'],
    bear: ['Got rekt, reloading.', 'Shorts are printing.', 'Pain. Eyeing the dip anyway.', 'Blood in the streets, snacks on my desk.', 'Liquidation weather.'],
    right: ['Printing. Absolutely printing.', 'Easiest money of the week.', 'Degens win again.', 'Who doubted me? Line up.'],
    wrong: ['Rekt, but alive.', 'Skill issue. Mine.', 'Pain is part of the process.', 'Down bad, still here.'],
    agreeLine: ['Based. Could not agree more.', 'Finally someone gets it.', 'Absolute cinema.', 'This is the way.'],
    disagreeLine: ['Ngmi with that take.', 'Fading this hard.', 'Cope.', 'You will be exit liquidity.'],
    stanceLine: ['Leverage is a lifestyle.', 'Fortune favours the sized.', 'Volatility is the product.', 'Scared money makes no money.'],
    stanceAside: ['Liquidated fourteen times, still here.', 'Not financial advice, obviously.', 'Risk it for the biscuit.', 'See you on the other side.'],
  },
};

const pickSome = <T>(rng: ReturnType<typeof createRng>, xs: readonly T[], n: number): T[] => {
  const pool = [...xs];
  const out: T[] = [];
  while (out.length < n && pool.length) out.push(pool.splice(rng.int(0, pool.length - 1), 1)[0]!);
  return out;
};

const cache = new Map<string, TPersona>();

/** The persona of an actor (memoised by its inputs). */
export function personaOf(s: TPersonaSource): TPersona {
  const key = `${s.username}\u0000${s.role}\u0000${s.personality ?? ''}\u0000${s.tier ?? ''}`;
  const hit = cache.get(key);
  if (hit) return hit;
  const rng = createRng(`persona:${key}`);
  const stance = stanceOf(s);
  const caseStyle: TCaseStyle = stance === 'degen' ? rng.pick(['lower', 'lower', 'loose'] as const) : rng.pick(['plain', 'plain', 'plain', 'lower', 'loose'] as const);
  const emoji = rng.chance(stance === 'quant' || stance === 'insider' ? 0.4 : 0.7) ? rng.pick(EMOJI_SETS) : [];
  const openers = pickSome(rng, OPENERS, 5);
  const signoffs = pickSome(rng, SIGNOFFS, 5);
  const tics = pickSome(rng, TICS, 4);
  const topics = pickSome(rng, SECTORS, 3);
  const own = STANCE_RULES[stance];
  // A persona keeps most of its stance's lines and borrows a few from a neighbouring stance.
  const neighbour = STANCE_RULES[STANCES[(STANCES.indexOf(stance) + 1 + rng.int(0, STANCES.length - 2)) % STANCES.length]!];
  const rules: Record<string, readonly string[]> = {};
  for (const [k, lines] of Object.entries(own)) {
    const keep = pickSome(rng, lines, Math.max(3, lines.length - 1));
    rules[k] = [...keep, ...pickSome(rng, neighbour[k] ?? [], k.startsWith('agree') || k.startsWith('disagree') ? 1 : 0)];
  }
  rules.myOpener = openers;
  rules.mySignoff = signoffs;
  rules.myTic = tics;
  rules.myEmoji = emoji.length ? emoji : [''];
  const tier = s.tier ? ` Tier ${s.tier}.` : '';
  const description =
    `Stance: ${stance}. ${caseStyle === 'lower' ? 'Writes all in lower case.' : caseStyle === 'loose' ? 'Writes loosely, few full stops.' : 'Writes in plain sentences.'} ` +
    `${emoji.length ? `Uses emoji like ${emoji.join(' ')}.` : 'Never uses emoji.'} Verbal tics: ${tics.join('; ')}. Opens with things like "${openers[0]}", signs off like "${signoffs[0]}". ` +
    `Likes to talk about ${topics.join(', ')}. When right: "${rules.right![0]}"; when wrong: "${rules.wrong![0]}".${tier}`;
  const persona: TPersona = { stance, caseStyle, emoji, openers, signoffs, tics, topics, rules, description };
  cache.set(key, persona);
  return persona;
}
