/**
 * NPC points by activity (issue 31: no fixed NPC standing). Players earn points by milestones,
 * shares and referrals, which NPCs cannot reach; an NPC earns by what it does instead, at each
 * daily close: a point per trade it made that day (prediction trades and perp opens and closes),
 * at most NPC_TRADE_POINTS_MAX, and a point per NPC_LIKES_PER_POINT likes its posts received that
 * day from players (not from other NPCs), at most NPC_LIKE_POINTS_MAX. Pure: the rule; the payment is service/npc-activity.ts.
 */
export const NPC_TRADE_POINTS_MAX = 20;
export const NPC_LIKES_PER_POINT = 5;
export const NPC_LIKE_POINTS_MAX = 20;

/** The points an NPC earns for a day with `trades` trades and `likes` likes on its posts. */
export function npcActivityPoints(activity: { trades: number; likes: number }): number {
  const trades = Math.min(NPC_TRADE_POINTS_MAX, Math.max(0, Math.floor(activity.trades)));
  const likes = Math.min(NPC_LIKE_POINTS_MAX, Math.max(0, Math.floor(activity.likes / NPC_LIKES_PER_POINT)));
  return trades + likes;
}

/** The award key of a day's activity points: paid once per NPC and day, however many closes see it. */
export function npcActivityAwardKey(day: string): string {
  return `npc:activity:${day}`;
}
