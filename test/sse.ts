/** Reading an SSE answer in tests: frames as an EventSource reads them. */

/**
 * How long a test waits for an event to arrive: delivery goes through the outbox, LISTEN/NOTIFY
 * and a hub, which on a loaded two-core machine can take more than vi.waitFor's default second.
 * The waits end as soon as their condition holds.
 */
export const DELIVERY_WAIT = { timeout: 10_000, interval: 20 };

export type TFrame = { id?: string; event?: string; data?: any; comment?: string; retry?: number };

/** One frame's fields: `field: value`, one leading space dropped; a `:` line is a comment. */
export const parseFrame = (text: string): TFrame => {
  const f: TFrame = {};
  for (const line of text.split('\n')) {
    if (line.startsWith(':')) {
      f.comment = line.slice(1).trim();
      continue;
    }
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
    if (field === 'id') f.id = value;
    else if (field === 'event') f.event = value;
    else if (field === 'data') f.data = JSON.parse(value);
    else if (field === 'retry') f.retry = Number(value);
  }
  return f;
};

/** Reads `body` in the background into `frames` (comment-only frames kept); `close` cancels it. */
export const readFrames = (body: ReadableStream<Uint8Array>) => {
  const reader = body.getReader();
  const frames: TFrame[] = [];
  const decoder = new TextDecoder();
  let buf = '';
  void (async () => {
    for (;;) {
      const r = await reader.read();
      if (r.done) break;
      buf += decoder.decode(r.value, { stream: true });
      for (let i = buf.indexOf('\n\n'); i >= 0; i = buf.indexOf('\n\n')) {
        frames.push(parseFrame(buf.slice(0, i)));
        buf = buf.slice(i + 2);
      }
    }
  })().catch(() => {});
  return { frames, close: () => reader.cancel().catch(() => {}) };
};
