import { describe, expect, it } from 'vitest';
import { ApiError } from '@/lib/client/api';
import { buildOnboardBody, onboardFieldErrors, readReferralCookie } from './onboarding';

describe('readReferralCookie', () => {
  it('reads pm_ref among other cookies and refuses odd values', () => {
    expect(readReferralCookie('a=1; pm_ref=ABC123; b=2')).toBe('ABC123');
    expect(readReferralCookie('a=1')).toBe('');
    expect(readReferralCookie('pm_ref=%3Cscript%3E')).toBe('');
  });
});

describe('buildOnboardBody', () => {
  it('leaves blanks out', () => {
    expect(buildOnboardBody({ username: ' ann ', displayName: 'Ann', bio: ' ', profileImageUrl: '', referralCode: '' })).toEqual({ username: 'ann', displayName: 'Ann' });
  });
});

describe('onboardFieldErrors', () => {
  it('puts referral errors on the referral field and a taken username on the username', () => {
    expect(onboardFieldErrors(new ApiError(400, 'INVALID_REFERRAL_CODE', 'x'))).toHaveProperty('referralCode');
    expect(onboardFieldErrors(new ApiError(400, 'SELF_REFERRAL', 'x'))).toHaveProperty('referralCode');
    expect(onboardFieldErrors(new ApiError(409, 'USERNAME_TAKEN', 'x'))).toHaveProperty('username');
  });
});
