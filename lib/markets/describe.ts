/**
 * A question's description and resolution criteria, written from the rule it resolves by
 * (question_rules, read by lib/game/steps/questions with `resolveOutcome` in lib/game/world-rules):
 *   - price: the organization's price (its ticker's index) at the resolution date is strictly
 *     above / below a threshold, never the question's own market price;
 *   - event: a world event of one kind about the organization (by one actor, when named) happens
 *     between the question's creation and its resolution date; whether it does was drawn when the
 *     question was asked (lib/game/outcomes.ts) and the world's news follows the draw. A YES is
 *     settled at the first tick after the news, not at the date;
 *   - no rule (admin-created or seeded questions): the market's own YES price at the date, YES at
 *     0.5 or above.
 * Pure text: no I/O, no clock; the same input always gives the same sentences. Dates are UTC.
 */
import type { TEventKind } from '@/db/schema/world-values';
import { dec } from '@/lib/money/decimal';

export type TRuleOrganization = { id: string; name: string; ticker: string; sector: string };

export type TDescribableRule =
  | { kind: 'price'; organization: TRuleOrganization; comparison: 'above' | 'below'; threshold: string | number }
  | { kind: 'event'; organization: TRuleOrganization; eventKind: string; actorName: string | null };

export type TDescribableMarket = {
  text: string;
  createdAt: Date;
  resolutionDate: Date;
  status: 'active' | 'resolved';
  resolvedOutcome: 'YES' | 'NO' | null;
  resolvedAt: Date | null;
};

export type TMarketDescription = {
  /** What the question is about, in a sentence or two. */
  description: string;
  /** Exactly what makes it YES or NO, when, and from which source in the world. */
  resolutionCriteria: string;
  /** Where the answer comes from: 'price' (a ticker's price), 'event' (world news) or 'market' (its own price). */
  resolutionSource: 'price' | 'event' | 'market';
};

/** How news of each kind reads in a sentence ("… reports {phrase} about Nexa Dynamics"). */
const EVENT_PHRASES: Record<TEventKind, string> = {
  earnings_beat: 'an earnings beat',
  earnings_miss: 'an earnings miss',
  product_launch: 'a product launch',
  partnership: 'a partnership announcement',
  contract_win: 'a major contract win',
  scandal: 'a scandal',
  regulatory_probe: 'a regulatory probe',
  executive_statement: 'a public statement by an executive',
};

const DATE_TIME = new Intl.DateTimeFormat('en-US', {
  weekday: 'short',
  month: 'short',
  day: 'numeric',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
  timeZone: 'UTC',
});

/** "Sat, Nov 28, 2026, 14:00 UTC" */
export function formatRuleDate(d: Date) {
  return `${DATE_TIME.format(d)} UTC`;
}

/** A threshold as people write it: 123.400000 → "123.4". */
const formatThreshold = (t: string | number) => dec(t).toFixed();

const eventPhrase = (kind: string) => EVENT_PHRASES[kind as TEventKind] ?? `a "${kind.replaceAll('_', ' ')}" event`;

const outcomeSentence = (m: TDescribableMarket) =>
  m.status === 'resolved' && m.resolvedOutcome
    ? ` It resolved ${m.resolvedOutcome}${m.resolvedAt ? ` on ${formatRuleDate(m.resolvedAt)}` : ''}.`
    : '';

/** The description and resolution criteria of a question from its rule (null: no rule). */
export function describeMarket(m: TDescribableMarket, rule: TDescribableRule | null): TMarketDescription {
  const closes = formatRuleDate(m.resolutionDate);
  const opened = formatRuleDate(m.createdAt);
  const timing = `It is settled by the first game tick at or after ${closes}; each winning share then pays $1.`;
  const eventTiming = `A YES is settled by the first game tick after that news, a NO by the first game tick at or after ${closes}; each winning share then pays $1.`;
  if (rule?.kind === 'price') {
    const { name, ticker, sector } = rule.organization;
    const threshold = formatThreshold(rule.threshold);
    const other = rule.comparison === 'above' ? 'at or below' : 'at or above';
    return {
      resolutionSource: 'price',
      description:
        `A price question about ${name} ($${ticker}${sector ? `, ${sector}` : ''}): will its price be ${rule.comparison} ${threshold} ` +
        `when the question closes on ${closes}? News about ${name} moves its price and this market with it.` +
        outcomeSentence(m),
      resolutionCriteria:
        `Resolves YES if the price of ${name} ($${ticker}) in the game world is strictly ${rule.comparison} ${threshold} at ${closes}, ` +
        `and NO if it is ${other} ${threshold}. Source: the $${ticker} index (the organization's price), read when the question is settled; ` +
        `never this market's own price. ` +
        timing,
    };
  }
  if (rule?.kind === 'event') {
    const { name, ticker, sector } = rule.organization;
    const what = rule.eventKind === 'executive_statement' && rule.actorName ? `a public statement by ${rule.actorName}` : eventPhrase(rule.eventKind);
    const byWhom = rule.actorName && rule.eventKind !== 'executive_statement' ? ` made by ${rule.actorName}` : '';
    return {
      resolutionSource: 'event',
      description:
        `A news question about ${name} ($${ticker}${sector ? `, ${sector}` : ''}): will the world's news report ${what} about ${name} before ${closes}?` +
        outcomeSentence(m),
      resolutionCriteria:
        `Resolves YES if a world news event of the kind "${rule.eventKind.replaceAll('_', ' ')}" about ${name}${byWhom} is published between ` +
        `the question's opening (${opened}) and ${closes}, and NO if none is. Whether it happens was drawn by the game world when the question ` +
        `opened, at the odds its rules give such news; the news follows that draw, and no trade changes it. ` +
        `Source: the game's breaking news (world events) about ${name}. ` +
        eventTiming,
    };
  }
  return {
    resolutionSource: 'market',
    description: `A question about the game world: "${m.text}" It is not tied to a ticker's price or a kind of news, so its traders decide it.${outcomeSentence(m)}`,
    resolutionCriteria:
      `Resolves from this market's own price: at ${closes} it resolves YES if the YES price is 50% or more, and NO if it is below 50%. ` +
      `Source: this market. An administrator may also resolve it. ${timing}`,
  };
}
