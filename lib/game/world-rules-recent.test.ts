import { describe, expect, it } from 'vitest';
import { ORGANIZATIONS } from '@/lib/world/seed/world-data';
import { createRng } from './rng';
import { maskQuestion } from './world-figures';
import { planQuestion, RECENT_QUESTION_DAYS, sameQuestionKind, type TActorState, type TOrgState, type TQuestionRule, type TRecentQuestion } from './world-rules';

const DAY = 86_400_000;
const ORGS: TOrgState[] = ORGANIZATIONS.map((o) => ({ id: o.id, name: o.name, ticker: o.ticker, price: Number(o.price) }));
const ACTORS: TActorState[] = ORGANIZATIONS.flatMap((o, i) => [
  { id: `ceo-${i}`, name: `Chief ${i}`, organizationId: o.id },
  { id: `cfo-${i}`, name: `Finance ${i}`, organizationId: o.id },
]);

describe('planQuestion never repeats an open or recent question', () => {
  it('rejects the same organization and kind, and the same masked text', () => {
    const at = new Date('2030-01-07T10:30:00.000Z');
    const rule: TQuestionRule = { kind: 'price', organizationId: ORGS[0]!.id, ticker: ORGS[0]!.ticker, comparison: 'above', threshold: 150 };
    const recent: TRecentQuestion[] = ORGS.map((o) => ({ rule: { ...rule, organizationId: o.id, ticker: o.ticker }, text: '' }));
    for (let i = 0; i < 200; i++) {
      const q = planQuestion(createRng(`r${i}`), { orgs: ORGS, actors: ACTORS, at, recent })!;
      expect(q.rule.kind === 'price' && q.rule.comparison === 'above').toBe(false);
    }
    expect(sameQuestionKind(rule, { ...rule, threshold: 1 })).toBe(true);
    expect(sameQuestionKind(rule, { ...rule, comparison: 'below' })).toBe(false);
  });

  it('gives no question when every organization and kind is taken', () => {
    const at = new Date('2030-01-07T10:30:00.000Z');
    const recent: TRecentQuestion[] = [];
    for (let i = 0; i < 500; i++) {
      const q = planQuestion(createRng(`full${i}`), { orgs: ORGS.slice(0, 1), actors: ACTORS, at, recent });
      if (!q) break;
      recent.push({ rule: q.rule, text: q.text });
    }
    expect(planQuestion(createRng('last'), { orgs: ORGS.slice(0, 1), actors: ACTORS, at, recent })).toBeNull();
  });

  it('over 90 simulated days (10–20 open, 1–7 days each) repeats no masked text nor subject and kind within 30 days', () => {
    const start = new Date('2030-01-01T00:00:00.000Z').getTime();
    const asked: { at: number; resolves: number; rule: TQuestionRule; text: string }[] = [];
    const rng = createRng('ninety-days');
    let refused = 0;
    const openCounts: number[] = [];
    for (let h = 0; h < 90 * 24; h++) {
      const now = start + h * 3_600_000;
      const open = asked.filter((q) => q.resolves > now);
      const want = open.length < 10 ? 10 - open.length : open.length < 20 && rng.chance(0.1) ? 1 : 0;
      for (let i = 0; i < want; i++) {
        const recent = asked.filter((q) => q.resolves > now || q.at >= now - RECENT_QUESTION_DAYS * DAY).map((q) => ({ rule: q.rule, text: q.text }));
        const q = planQuestion(rng.fork(`${h}:${i}`), { orgs: ORGS, actors: ACTORS, at: new Date(now), open: open.map((o) => o.rule), recent });
        if (!q) {
          refused++;
          break;
        }
        asked.push({ at: now, resolves: q.resolutionDate.getTime(), rule: q.rule, text: q.text });
        open.push(asked[asked.length - 1]!);
      }
      openCounts.push(asked.filter((q) => q.resolves > now).length);
    }
    for (const [i, a] of asked.entries()) {
      for (const b of asked.slice(i + 1)) {
        if (b.at - a.at >= RECENT_QUESTION_DAYS * DAY && b.at >= a.resolves) continue;
        expect(maskQuestion(b.text), `${a.text} / ${b.text}`).not.toBe(maskQuestion(a.text));
        expect(sameQuestionKind(b.rule, a.rule), `${a.text} / ${b.text}`).toBe(false);
      }
    }
    openCounts.sort((a, b) => a - b);
    console.log(`90 days: ${asked.length} questions, ${refused} refusals, median open ${openCounts[openCounts.length >> 1]}, min open ${openCounts[0]}`);
    expect(asked.length).toBeGreaterThan(100);
  });
});
