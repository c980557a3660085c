import { describe, expect, it } from 'vitest';
import { describePointsReason, parsePointsAmount } from './points';

describe('describePointsReason', () => {
  const milestones = [{ milestone: 'first_referral' as const, label: 'Refer your first player' }];
  it('names milestones by their checklist label, system reasons in words, and keeps free text', () => {
    expect(describePointsReason('milestone:first_referral', milestones)).toBe('Milestone: Refer your first player');
    expect(describePointsReason('milestone:profile_image')).toBe('Milestone: profile image');
    expect(describePointsReason('transfer_in')).toBe('Received from another player');
    expect(describePointsReason('Tournament prize')).toBe('Tournament prize');
  });
});

describe('parsePointsAmount', () => {
  it('takes whole positive numbers only', () => {
    expect(parsePointsAmount('1,250')).toEqual({ amount: 1250 });
    expect(parsePointsAmount('')).toHaveProperty('problem');
    expect(parsePointsAmount('2.5')).toHaveProperty('problem');
    expect(parsePointsAmount('0')).toHaveProperty('problem');
    expect(parsePointsAmount('-3')).toHaveProperty('problem');
  });
});
