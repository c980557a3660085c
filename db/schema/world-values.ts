/**
 * The kinds of news the world makes: what world_events.kind holds for the tick's news and what an
 * `event` question rule (question_rules.event_kind) asks about. Without drizzle or game logic, so
 * lib/game (which writes the news) and lib/markets (which words the questions) both read it from
 * below them.
 */
export const EVENT_KINDS = [
  'earnings_beat',
  'earnings_miss',
  'product_launch',
  'partnership',
  'contract_win',
  'scandal',
  'regulatory_probe',
  'executive_statement',
] as const;
export type TEventKind = (typeof EVENT_KINDS)[number];
