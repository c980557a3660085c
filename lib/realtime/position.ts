/**
 * An event's position in the outbox: its writer's transaction id and its own id, in that order
 * (see db/schema/events.ts for why ids alone are not a cursor). On the wire (the SSE `id:` and
 * `Last-Event-ID`) it is "<txId>-<id>", both decimal: e.g. "7431-1289". Pure, no I/O.
 */
export type TPosition = { txId: bigint; id: bigint };

const WIRE = /^(\d{1,20})-(\d{1,20})$/;

export function formatPosition(p: TPosition) {
  return `${p.txId}-${p.id}`;
}

/** The position of a wire id, or null when it is not one. */
export function parsePosition(text: string): TPosition | null {
  const m = WIRE.exec(text.trim());
  if (!m) return null;
  const txId = BigInt(m[1]!);
  const id = BigInt(m[2]!);
  // xid8 and bigint are both 64-bit; anything larger is not a position we ever wrote.
  if (txId >= 2n ** 64n || id >= 2n ** 63n) return null;
  return { txId, id };
}

export function comparePositions(a: TPosition, b: TPosition) {
  return a.txId !== b.txId ? (a.txId < b.txId ? -1 : 1) : a.id === b.id ? 0 : a.id < b.id ? -1 : 1;
}

export function isAfter(a: TPosition, b: TPosition | null) {
  return b === null || comparePositions(a, b) > 0;
}
