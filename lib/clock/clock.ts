/**
 * The one clock. Every timestamp the service writes comes from now(), so tests can pin time and
 * the game's test clock (`ALLOW_TEST_CLOCK`, README "Environment") can move it forward. No I/O.
 * Invariant: game time never moves backwards.
 */
let fixed: Date | undefined;
let offsetMs = 0;

/** Current time: a pinned time in tests, otherwise wall time plus any game-time advance. */
export function now(): Date {
  return (fixed ? new Date(fixed) : new Date(Date.now() + offsetMs));
}

/** Pins the clock (tests). Pass undefined to return to wall time. */
export function setFixedTime(at: Date | undefined) {
  fixed = at ? new Date(at) : undefined;
}

/** Moves game time forward to `to`; a time in the past is ignored (time never goes backwards). */
export function advanceTo(to: Date): Date {
  // One reading of the wall clock: the answer is exactly `to` when time moved, never `to` plus
  // the millisecond that passed between two readings.
  const wall = Date.now();
  const current = fixed ? fixed.getTime() : wall + offsetMs;
  if (to.getTime() <= current) return new Date(current);
  if (fixed) fixed = new Date(to);
  else offsetMs += to.getTime() - current;
  return new Date(to);
}

export function resetClock() {
  fixed = undefined;
  offsetMs = 0;
}
