import { describe, expect, it } from 'vitest';
import { UNANSWERED_TTL_MS, createActionKeys } from './idempotency';

const counter = () => {
  let n = 0;
  return () => `k${++n}`;
};

describe('createActionKeys', () => {
  it('a double click (the same request while the first is out) shares one key', () => {
    const keys = createActionKeys(counter());
    const a = keys.begin('buy|m1|{"amount":"5"}');
    const b = keys.begin('buy|m1|{"amount":"5"}');
    expect(b).toBe(a);
    keys.answered('buy|m1|{"amount":"5"}');
    keys.answered('buy|m1|{"amount":"5"}');
    // Answered: the same body again is a new, deliberate action.
    expect(keys.begin('buy|m1|{"amount":"5"}')).not.toBe(a);
  });

  it('a request that got no answer keeps its key for the retry, until the retry is answered', () => {
    const keys = createActionKeys(counter());
    const a = keys.begin('x');
    keys.unanswered('x');
    const retry = keys.begin('x');
    expect(retry).toBe(a);
    keys.answered('x');
    expect(keys.begin('x')).not.toBe(a);
  });

  it('another body is another action', () => {
    const keys = createActionKeys(counter());
    expect(keys.begin('a')).not.toBe(keys.begin('b'));
  });

  it('an unanswered key is forgotten after its time', () => {
    let t = 0;
    const keys = createActionKeys(counter(), () => t);
    const a = keys.begin('x');
    keys.unanswered('x');
    t = UNANSWERED_TTL_MS + 1;
    expect(keys.begin('x')).not.toBe(a);
  });
});
