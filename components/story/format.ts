/** Words and tones for storylines: beat kinds, roles, probabilities and Brier scores. Pure. */
import type { TBadgeTone } from '@/components/ui/badge';
import type { TBeatRole } from './types';

const KIND_LABELS: Record<string, string> = {
  rumour: 'Rumour',
  leak: 'Leak',
  denial: 'Denial',
  filing: 'Filing',
  result: 'Result',
  hint: 'Hint',
  misdirection: 'Misdirection',
  analysis: 'Analysis',
};

const KIND_TONES: Record<string, TBadgeTone> = {
  rumour: 'warn',
  leak: 'warn',
  denial: 'neutral',
  filing: 'accent',
  result: 'accent',
  hint: 'neutral',
  misdirection: 'neutral',
  analysis: 'neutral',
};

/** "leak" → "Leak"; an unknown kind is capitalised as is. */
export const kindLabel = (kind: string) => KIND_LABELS[kind] ?? kind.charAt(0).toUpperCase() + kind.slice(1);
export const kindTone = (kind: string): TBadgeTone => KIND_TONES[kind] ?? 'neutral';

export const ROLE_LABELS: Record<TBeatRole, string> = {
  press: 'Press',
  company: 'Company',
  insider: 'Insider',
  deceiver: 'Deceiver',
  analyst: 'Analyst',
};

export const roleTone = (role: TBeatRole): TBadgeTone => (role === 'insider' ? 'up' : role === 'deceiver' ? 'down' : 'neutral');

/** 0.184 → "0.18" (lower is better: 0 is perfect, 0.25 is a coin flip's always-50%). */
export const formatBrier = (brier: number) => brier.toFixed(2);

/** 0.7 → "70%". */
export const formatPercent = (p: number) => `${Math.round(p * 100)}%`;

export const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** "right" share of resolved calls, or null without any. */
export const rightShare = (right: number, resolved: number) => (resolved > 0 ? right / resolved : null);

/** What a Brier score means, in a sentence for tooltips and screen readers. */
export const describeCalibration = (brier: number, resolved: number) =>
  `Calibration: Brier score ${formatBrier(brier)} over ${plural(resolved, 'resolved call')} (0 is perfect, 0.25 is no better than always saying 50%)`;
