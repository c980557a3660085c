/**
 * One Idempotency-Key per user action (issue 20), for the browser's typed client. A money request
 * (an endpoint marked `idempotent`) is named by what it asks: endpoint, URL and body. While such a
 * request is unanswered, the same request again (a double click, a retry after a dropped
 * connection, the user pressing the button again after a network error) reuses its key, so the
 * server trades once and answers the repeat with the first answer. Once the server has answered
 * (success or a refusal), the action is over: the same body again is a new action with a new key,
 * as a second deliberate buy must be.
 * Keys of requests that never got an answer are kept for UNANSWERED_TTL_MS, long enough for a
 * manual retry, well inside the server's 24 hours.
 */

export const UNANSWERED_TTL_MS = 10 * 60 * 1000;

type TEntry = { key: string; inFlight: number; unansweredSince?: number };

export type TActionKeys = {
  /** The key for this request: the key of an identical request still unanswered, or a new one. */
  begin: (fingerprint: string) => string;
  /** The request got no answer (network failure): keep its key for a retry. */
  unanswered: (fingerprint: string) => void;
  /** The server answered: the action is over. */
  answered: (fingerprint: string) => void;
};

export function createActionKeys(newKey: () => string = () => crypto.randomUUID(), clock: () => number = Date.now): TActionKeys {
  const entries = new Map<string, TEntry>();
  const sweep = (t: number) => {
    for (const [fp, e] of entries) if (e.inFlight === 0 && e.unansweredSince !== undefined && t - e.unansweredSince > UNANSWERED_TTL_MS) entries.delete(fp);
  };
  return {
    begin: (fp) => {
      sweep(clock());
      let e = entries.get(fp);
      if (!e) entries.set(fp, (e = { key: newKey(), inFlight: 0 }));
      e.inFlight++;
      return e.key;
    },
    unanswered: (fp) => {
      const e = entries.get(fp);
      if (!e) return;
      e.inFlight = Math.max(0, e.inFlight - 1);
      e.unansweredSince = clock();
    },
    answered: (fp) => {
      const e = entries.get(fp);
      if (!e) return;
      e.inFlight = Math.max(0, e.inFlight - 1);
      // A double click's second request is still out: it replays this answer, then ends the action.
      if (e.inFlight === 0) entries.delete(fp);
    },
  };
}
