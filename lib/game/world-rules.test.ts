import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createRng } from './rng';
import {
  ASKABLE_KINDS,
  collides,
  EVENT_KINDS,
  fulfils,
  MAX_ACTIVE_QUESTIONS,
  MIN_ACTIVE_QUESTIONS,
  planEventCount,
  planFulfillingEvent,
  planQuestion,
  planWorldEvent,
  newsDirections,
  questionsToCreate,
  relatedQuestions,
  resolveOutcome,
  roundThreshold,
  type TActorState,
  type TEventRule,
  type TOpenQuestion,
  type TOrgState,
  type TPlannedEvent,
} from './world-rules';

const ORGS: TOrgState[] = [
  { id: 'org-a', name: 'Acme', ticker: 'ACME', price: 120 },
  { id: 'org-b', name: 'Beta Labs', ticker: 'BETA', price: 8.5 },
];
const ACTORS: TActorState[] = [
  { id: 'actor-ann', name: 'Ann', organizationId: 'org-a' },
  { id: 'actor-bob', name: 'Bob', organizationId: null },
];
const AT = new Date('2030-01-07T10:30:00.000Z');

const event = (over: Partial<TPlannedEvent> = {}): TPlannedEvent => ({
  kind: 'partnership',
  title: 't',
  content: 'c',
  organizationId: 'org-a',
  ticker: 'ACME',
  actorId: null,
  impact: 0.03,
  ...over,
});

describe('planWorldEvent', () => {
  it('is deterministic and fills its templates', () => {
    const a = planWorldEvent(createRng('s'), { orgs: ORGS, actors: ACTORS, questions: [] })!;
    expect(planWorldEvent(createRng('s'), { orgs: ORGS, actors: ACTORS, questions: [] })).toEqual(a);
    expect(EVENT_KINDS).toContain(a.kind);
    expect(`${a.title} ${a.content}`).not.toMatch(/[{}]/);
    expect(planWorldEvent(createRng('s'), { orgs: [], actors: ACTORS, questions: [] })).toBeNull();
  });

  // Until issue 31 random news fulfilled an open event question 40% of the time, so event
  // questions nearly always resolved YES; now only the world's draw makes their news happen.
  it('never fulfils a reserved (drawn) question, and impacts stay in template ranges', () => {
    const reserved: TEventRule[] = [
      { kind: 'event', organizationId: 'org-b', actorId: null, eventKind: 'contract_win' },
      { kind: 'event', organizationId: 'org-a', actorId: 'actor-ann', eventKind: 'executive_statement' },
    ];
    let aboutB = 0;
    for (let i = 0; i < 400; i++) {
      const e = planWorldEvent(createRng(`s${i}`), { orgs: ORGS, actors: ACTORS, reserved })!;
      expect(Math.abs(e.impact)).toBeLessThanOrEqual(0.08);
      for (const r of reserved) expect(fulfils(r, e), `${e.kind} ${e.organizationId} ${e.actorId}`).toBe(false);
      if (e.organizationId === 'org-b') aboutB++;
    }
    // The rest of the news still happens about both organizations.
    expect(aboutB).toBeGreaterThan(100);
    expect(aboutB).toBeLessThan(300);
    // Nothing reserved: the same seed makes the same news as before the search existed.
    expect(planWorldEvent(createRng('s1'), { orgs: ORGS, actors: ACTORS, reserved: [] })).toEqual(planWorldEvent(createRng('s1'), { orgs: ORGS, actors: ACTORS }));
    // Every kind of every organization reserved: no news at all.
    const all = ORGS.flatMap((o) => EVENT_KINDS.map((k) => ({ kind: 'event' as const, organizationId: o.id, actorId: null, eventKind: k })));
    expect(planWorldEvent(createRng('s'), { orgs: ORGS, actors: ACTORS, reserved: all })).toBeNull();
  });

  it('makes the news a question drawn YES waits for: its kind, organization and speaker', () => {
    const statement: TEventRule = { kind: 'event', organizationId: 'org-a', actorId: 'actor-bob', eventKind: 'executive_statement' };
    const scandal: TEventRule = { kind: 'event', organizationId: 'org-b', actorId: null, eventKind: 'scandal' };
    for (let i = 0; i < 50; i++) {
      for (const r of [statement, scandal]) {
        const e = planFulfillingEvent(createRng(`f${i}`), r, { orgs: ORGS, actors: ACTORS })!;
        expect(fulfils(r, e)).toBe(true);
        expect(`${e.title} ${e.content}`).not.toMatch(/[{}]/);
      }
    }
    expect(planFulfillingEvent(createRng('f'), { ...scandal, organizationId: 'org-gone' }, { orgs: ORGS, actors: ACTORS })).toBeNull();
  });

  it('collides: two rules one event could fulfil', () => {
    const r: TEventRule = { kind: 'event', organizationId: 'org-a', actorId: null, eventKind: 'executive_statement' };
    expect(collides(r, { ...r, actorId: 'actor-ann' })).toBe(true);
    expect(collides({ ...r, actorId: 'actor-bob' }, { ...r, actorId: 'actor-ann' })).toBe(false);
    expect(collides(r, { ...r, organizationId: 'org-b' })).toBe(false);
    expect(collides(r, { ...r, eventKind: 'scandal' })).toBe(false);
  });

  it('names an actor for executive statements', () => {
    for (let i = 0; i < 300; i++) {
      const e = planWorldEvent(createRng(`a${i}`), { orgs: ORGS, actors: ACTORS, questions: [] })!;
      if (e.kind === 'executive_statement') expect(ACTORS.map((a) => a.id)).toContain(e.actorId);
      else expect(e.actorId).toBeNull();
    }
  });
});

describe('relatedQuestions', () => {
  const qs: TOpenQuestion[] = [
    { marketId: 'above', questionNumber: 1, rule: { kind: 'price', organizationId: 'org-a', ticker: 'ACME', comparison: 'above', threshold: 125 } },
    { marketId: 'below', questionNumber: 2, rule: { kind: 'price', organizationId: 'org-a', ticker: 'ACME', comparison: 'below', threshold: 110 } },
    { marketId: 'event', questionNumber: 3, rule: { kind: 'event', organizationId: 'org-a', actorId: null, eventKind: 'partnership' } },
    { marketId: 'other', questionNumber: 4, rule: { kind: 'price', organizationId: 'org-b', ticker: 'BETA', comparison: 'above', threshold: 9 } },
    { marketId: 'norule', questionNumber: 5, rule: null },
  ];

  it('leans price questions with the news and event questions it fulfils toward YES', () => {
    const good = relatedQuestions(event({ impact: 0.03 }), qs);
    expect(good.numbers).toEqual([1, 2, 3]);
    expect(good.biases).toEqual([
      { marketId: 'above', direction: 'YES', adjustment: 0.3 },
      { marketId: 'below', direction: 'NO', adjustment: 0.3 },
      { marketId: 'event', direction: 'YES', adjustment: 0.6 },
    ]);
    const bad = relatedQuestions(event({ kind: 'scandal', impact: -0.05 }), qs);
    expect(bad.numbers).toEqual([1, 2]);
    expect(bad.biases.map((b) => b.direction)).toEqual(['NO', 'YES']);
  });

  it('names the side each related question the news makes more likely: a fulfilling scandal is YES', () => {
    const fulfilling = relatedQuestions(event({ kind: 'partnership', impact: -0.02 }), qs);
    expect(fulfilling.directions).toEqual({ 1: 'NO', 2: 'YES', 3: 'YES' });
    const scandalQs: TOpenQuestion[] = [{ marketId: 'scandal', questionNumber: 9, rule: { kind: 'event', organizationId: 'org-a', actorId: null, eventKind: 'scandal' } }];
    expect(relatedQuestions(event({ kind: 'scandal', impact: -0.08 }), scandalQs).directions).toEqual({ 9: 'YES' });
  });

  it('newsDirections: events vote per question; a tie gives no direction', () => {
    expect([...newsDirections([{ directions: { 1: 'YES', 2: 'NO' } }, { directions: { 1: 'YES' } }])]).toEqual([
      [1, 'YES'],
      [2, 'NO'],
    ]);
    expect(newsDirections([{ directions: { 1: 'YES' } }, { directions: { 1: 'NO' } }]).has(1)).toBe(false);
    expect(newsDirections([{}]).size).toBe(0);
  });

  it('property: every direction a tick reports is the majority of its events', () => {
    const side = fc.constantFrom('YES' as const, 'NO' as const);
    fc.assert(
      fc.property(fc.array(fc.dictionary(fc.integer({ min: 1, max: 5 }).map(String), side), { maxLength: 6 }), (dirs) => {
        const events = dirs.map((d) => ({ directions: Object.fromEntries(Object.entries(d).map(([k, v]) => [Number(k), v])) as Record<number, 'YES' | 'NO'> }));
        for (const [n, d] of newsDirections(events)) {
          const votes = events.map((e) => e.directions[n]).filter(Boolean);
          expect(votes.filter((v) => v === d).length).toBeGreaterThan(votes.filter((v) => v !== d).length);
        }
      }),
    );
  });

  it('an event by someone else does not fulfil a question about a named actor', () => {
    const rule = { kind: 'event' as const, organizationId: 'org-a', actorId: 'actor-ann', eventKind: 'executive_statement' as const };
    expect(fulfils(rule, { kind: 'executive_statement', organizationId: 'org-a', actorId: 'actor-bob' })).toBe(false);
    expect(fulfils(rule, { kind: 'executive_statement', organizationId: 'org-a', actorId: 'actor-ann' })).toBe(true);
    expect(fulfils(rule, { kind: 'executive_statement', organizationId: 'org-b', actorId: 'actor-ann' })).toBe(false);
  });
});

describe('questions', () => {
  it('tops up to the minimum and stays below the maximum', () => {
    expect(questionsToCreate(createRng('q'), 6)).toBe(4);
    expect(questionsToCreate(createRng('q'), 0)).toBe(MIN_ACTIVE_QUESTIONS);
    expect(questionsToCreate(createRng('q'), MAX_ACTIVE_QUESTIONS)).toBe(0);
    fc.assert(fc.property(fc.integer({ min: 0, max: 40 }), fc.string(), (active, seed) => {
      const n = questionsToCreate(createRng(seed), active);
      return (active >= MAX_ACTIVE_QUESTIONS ? n === 0 : active + n <= MAX_ACTIVE_QUESTIONS) && (active < MIN_ACTIVE_QUESTIONS ? active + n === MIN_ACTIVE_QUESTIONS : n <= 1);
    }));
  });

  it('asks about the world with a resolution 1 to 7 days out, a threshold near the price and a rule to resolve by', () => {
    fc.assert(
      fc.property(fc.string(), (seed) => {
        const q = planQuestion(createRng(seed), { orgs: ORGS, actors: ACTORS, at: AT })!;
        const days = (q.resolutionDate.getTime() - AT.getTime()) / 86_400_000;
        if (days < 1 || days > 7 + 1 / 24 || q.resolutionDate.getTime() % 3_600_000 !== 0) return false;
        if (q.text.length > 200 || !q.text.endsWith('?')) return false;
        if (q.rule.kind === 'price') {
          const org = ORGS.find((o) => o.id === q.rule.organizationId)!;
          return Math.abs(q.rule.threshold / org.price - 1) <= 0.07 && q.text.includes(`$${org.ticker}`) && q.text.includes(` ${q.rule.comparison} ${q.rule.threshold} `);
        }
        return ASKABLE_KINDS.includes(q.rule.eventKind) && q.text.startsWith('Will ');
      }),
    );
  });

  it('names the speaker of a statement question, and its rule expects that speaker', () => {
    let seen = 0;
    for (let i = 0; i < 400; i++) {
      const q = planQuestion(createRng(`st${i}`), { orgs: ORGS, actors: ACTORS, at: AT })!;
      if (q.rule.kind !== 'event' || q.rule.eventKind !== 'executive_statement') continue;
      seen++;
      const speaker = ACTORS.find((a) => a.id === (q.rule as { actorId: string }).actorId)!;
      expect(q.text).toMatch(new RegExp(`^Will ${speaker.name} speak (out on|publicly about) (Acme|Beta Labs) by `));
    }
    expect(seen).toBeGreaterThan(5);
  });

  it('never asks an event question one event could settle together with an open one', () => {
    let asked = 0;
    fc.assert(
      fc.property(fc.string(), (seed) => {
        const open = [planQuestion(createRng(`${seed}/a`), { orgs: ORGS, actors: ACTORS, at: AT })!.rule];
        for (let i = 0; i < 6; i++) {
          const q = planQuestion(createRng(`${seed}/${i}`), { orgs: ORGS, actors: ACTORS, at: AT, open })!;
          if (q.rule.kind === 'event') {
            asked++;
            for (const r of open) if (r.kind === 'event') expect(collides(r, q.rule)).toBe(false);
          }
          open.push(q.rule);
        }
      }),
    );
    expect(asked).toBeGreaterThan(50);
  });

  it('resolves from what happened: price against threshold, an event in the window, else the market price', () => {
    const above = { kind: 'price' as const, organizationId: 'org-a', ticker: 'ACME', comparison: 'above' as const, threshold: 120 };
    expect(resolveOutcome(above, { price: 121, eventHappened: false, yesPrice: 0.1 })).toBe('YES');
    expect(resolveOutcome(above, { price: 120, eventHappened: false, yesPrice: 0.9 })).toBe('NO');
    expect(resolveOutcome({ ...above, comparison: 'below' }, { price: 119.99, eventHappened: false, yesPrice: 0.1 })).toBe('YES');
    const ev = { kind: 'event' as const, organizationId: 'org-a', actorId: null, eventKind: 'partnership' as const };
    expect(resolveOutcome(ev, { price: null, eventHappened: true, yesPrice: 0.01 })).toBe('YES');
    expect(resolveOutcome(ev, { price: null, eventHappened: false, yesPrice: 0.99 })).toBe('NO');
    expect(resolveOutcome(null, { price: null, eventHappened: false, yesPrice: 0.5 })).toBe('YES');
    expect(resolveOutcome(null, { price: null, eventHappened: true, yesPrice: 0.49 })).toBe('NO');
    // An event rule with a draw resolves by it; a price rule never from its market.
    expect(resolveOutcome(ev, { price: null, eventHappened: false, yesPrice: 0.01, drawn: 'YES' })).toBe('YES');
    expect(resolveOutcome(ev, { price: null, eventHappened: true, yesPrice: 0.99, drawn: 'NO' })).toBe('NO');
    expect(resolveOutcome(above, { price: null, eventHappened: false, yesPrice: 0.99 })).toBeNull();
  });

  it('rounds thresholds to readable digits', () => {
    expect(roundThreshold(123.456)).toBe(123);
    expect(roundThreshold(12.345)).toBe(12.3);
    expect(roundThreshold(1.2345)).toBe(1.23);
    expect(roundThreshold(0.0001)).toBe(0.01);
  });
});

describe('planEventCount', () => {
  it('always makes news in a quiet world and about four an hour otherwise, a minute or an hour at a time', () => {
    let busy = 0;
    let hours = 0;
    for (let i = 0; i < 500; i++) {
      expect(planEventCount(createRng(`q${i}`), true)).toBeGreaterThanOrEqual(1);
      busy += planEventCount(createRng(`b${i}`), false);
      hours += planEventCount(createRng(`h${i}`), false, 60);
    }
    expect(busy / 500).toBeGreaterThan(0.03);
    expect(busy / 500).toBeLessThan(0.12);
    expect(hours / 500).toBeGreaterThan(3);
    expect(hours / 500).toBeLessThan(6);
  });
});
