import { describe, expect, it, vi } from 'vitest';
import { writePostWithLlm } from './llm';

const llm = { baseUrl: 'http://llm.invalid/v1', apiKey: 'k', model: 'm' };
const speaker = { username: 'ada_vance', displayName: 'Ada Vance', role: 'CEO', orgTicker: 'NEXA', orgName: 'Nexa Dynamics' };
const draft = 'Template post about $NEXA #NEXA';
const answer = (content: unknown, status = 200) => new Response(JSON.stringify({ choices: [{ message: { content } }] }), { status });

describe('writePostWithLlm (stubbed fetch, never the network)', () => {
  it('uses the model text when it answers in time and within 280 characters', async () => {
    const fetchImpl = vi.fn(async () => answer('"Nexa ships the new version today. $NEXA #NEXA"'));
    const out = await writePostWithLlm({ llm, speaker, draft, fetchImpl });
    expect(out).toEqual({ content: 'Nexa ships the new version today. $NEXA #NEXA', source: 'llm' });
    const [url, init] = fetchImpl.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('http://llm.invalid/v1/chat/completions');
    expect(JSON.parse(String(init.body)).model).toBe('m');
    expect((init.headers as Record<string, string>).authorization).toBe('Bearer k');
  });

  it('falls back to the template on an HTTP error, a bad body, an empty or over-long text, a trade claim, or a thrown error', async () => {
    const cases: (() => Promise<Response>)[] = [
      async () => answer('x', 500),
      // NPC posts report only trades that happened: the model may not invent one.
      async () => answer('Just opened a 20x long on $NEXA #NEXA'),
      async () => new Response('not json'),
      async () => answer(42),
      async () => answer('   '),
      async () => answer('y'.repeat(281)),
      async () => {
        throw new TypeError('fetch failed');
      },
    ];
    for (const c of cases) {
      expect(await writePostWithLlm({ llm, speaker, draft, fetchImpl: vi.fn(c) })).toEqual({ content: draft, source: 'template' });
    }
  });

  it('gives up after the timeout', async () => {
    const fetchImpl = vi.fn(
      (_url: string | URL | Request, init?: RequestInit) =>
        new Promise<Response>((_resolve, reject) => init!.signal!.addEventListener('abort', () => reject(init!.signal!.reason))),
    );
    const timeout = vi.spyOn(AbortSignal, 'timeout');
    try {
      const out = await writePostWithLlm({ llm, speaker, draft, timeoutMs: 50, fetchImpl: fetchImpl as unknown as typeof fetch });
      expect(out.source).toBe('template');
      // The request never answers: what ended it is the signal of the timeout given (50 ms, not
      // LLM_TIMEOUT_MS), aborted as a timeout.
      expect(timeout.mock.calls).toEqual([[50]]);
      const signal = fetchImpl.mock.calls[0]![1]!.signal!;
      expect(signal).toBe(timeout.mock.results[0]!.value);
      expect(signal.aborted).toBe(true);
      expect((signal.reason as Error).name).toBe('TimeoutError');
    } finally {
      timeout.mockRestore();
    }
  });
});

describe('keepsFacts', () => {
  it('accepts the draft\'s numbers, tickers and mentions, and refuses an invented one', async () => {
    const { keepsFacts } = await import('./llm');
    expect(keepsFacts('ok $ORBT still at 41.5, @ada', 'Running a long on $ORBT at 41.5 @ada')).toBe(true);
    expect(keepsFacts('$ORBT to 60 soon', 'Running a long on $ORBT at 41.5')).toBe(false);
    expect(keepsFacts('$NEXA looks better', 'Running a long on $ORBT')).toBe(false);
  });
});
