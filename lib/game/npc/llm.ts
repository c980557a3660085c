/**
 * Optional language-model posts: when env().llm names an OpenAI-compatible service, an NPC post
 * may be rewritten by it in the actor's voice. Any failure (no answer within the timeout, an HTTP
 * error, an empty or over-long text, a text that claims a trade (NPC posts report only trades
 * that happened, linked to them) or states a number, ticker or mention the draft does not)
 * returns the grammar's text (voice.ts, in the same persona), so the game never depends on the
 * service. I/O: one fetch per call; `fetchImpl` is injectable so tests never touch the network.
 */
import { POST_MAX_CHARS, visibleLength } from '@/lib/posts/text';
import { personaOf } from './grammar/persona';
import type { TSpeaker } from './voice';

export const LLM_TIMEOUT_MS = 3000;
/** At most this many model calls per tick: the tick's whole budget is a few seconds. */
export const LLM_CALLS_PER_TICK = 1;

export type TLlmConfig = { baseUrl: string; apiKey: string; model: string };

/** Words that claim a trade was made: a rewritten post that says them falls back to the draft. */
export const TRADE_CLAIM = /\b(bought|buying|sold|selling|opened|closed|aping|aped|longed|shorted)\b/i;

/**
 * Whether `text` states only the draft's facts: every number, $TICKER and @mention it holds is in
 * the draft (a model that invents a price, a ticker or a person falls back to the grammar's text).
 */
export function keepsFacts(text: string, draft: string) {
  const facts = (s: string) => new Set(s.match(/\$[A-Z][A-Z0-9]{1,9}\b|@[A-Za-z0-9_]+|\d+(?:[.,]\d+)?/g) ?? []);
  const known = facts(draft);
  return [...facts(text)].every((f) => known.has(f));
}

/**
 * The model's version of `draft` in the speaker's voice, or `draft` itself on any failure.
 * The prompt asks to keep the draft's @mentions, $tickers and #tags, so tags and notifications
 * still follow what the template meant.
 */
export async function writePostWithLlm(opts: {
  llm: TLlmConfig;
  speaker: TSpeaker & { personality?: string };
  draft: string;
  timeoutMs?: number;
  fetchImpl?: typeof fetch;
}): Promise<{ content: string; source: 'llm' | 'template' }> {
  const { llm, speaker, draft } = opts;
  const doFetch = opts.fetchImpl ?? fetch;
  try {
    const res = await doFetch(`${llm.baseUrl}/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${llm.apiKey}` },
      body: JSON.stringify({
        model: llm.model,
        max_tokens: 120,
        temperature: 0.9,
        messages: [
          {
            role: 'system',
            content: `You are ${speaker.displayName} (@${speaker.username}), ${speaker.role || 'a market commentator'}${speaker.orgName ? ` at ${speaker.orgName}` : ''}. ${speaker.personality ?? ''} Your voice: ${personaOf({ username: speaker.username, role: speaker.role, personality: speaker.personality, tier: speaker.tier }).description} Rewrite the draft, a fact sheet, as one social post of at most ${POST_MAX_CHARS} characters in your own voice. Keep every @mention, $TICKER, #tag and number of the draft and add none: no other prices, people, tickers or outcomes. Never say you bought, sold, opened or closed anything. Answer with the post only.`,
          },
          { role: 'user', content: `Draft: ${draft}` },
        ],
      }),
      signal: AbortSignal.timeout(opts.timeoutMs ?? LLM_TIMEOUT_MS),
    });
    if (!res.ok) return { content: draft, source: 'template' };
    const body = (await res.json()) as { choices?: { message?: { content?: unknown } }[] };
    const text = body.choices?.[0]?.message?.content;
    if (typeof text !== 'string') return { content: draft, source: 'template' };
    const content = text.trim().replace(/^"(.*)"$/s, '$1').trim();
    const n = visibleLength(content);
    if (n < 1 || n > POST_MAX_CHARS || (TRADE_CLAIM.test(content) && !TRADE_CLAIM.test(draft)) || !keepsFacts(content, draft)) return { content: draft, source: 'template' };
    return { content, source: 'llm' };
  } catch {
    return { content: draft, source: 'template' };
  }
}
