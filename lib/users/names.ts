/**
 * Username rules and generated profiles. Pure: randomness is injected so tests are repeatable.
 * A username is 3 to 20 letters, digits or underscores; comparisons ignore case.
 */
export const USERNAME_PATTERN = /^[A-Za-z0-9_]{3,20}$/;
export const USERNAME_MIN = 3;
export const USERNAME_MAX = 20;

export function isValidUsername(s: string) {
  return USERNAME_PATTERN.test(s);
}

const ADJECTIVES = [
  'Bright', 'Bold', 'Calm', 'Clever', 'Cosmic', 'Daring', 'Eager', 'Golden', 'Lucky', 'Nimble',
  'Quiet', 'Rapid', 'Shrewd', 'Silver', 'Steady', 'Swift', 'Vivid', 'Witty', 'Zesty', 'Keen',
];
const NOUNS = [
  'Otter', 'Falcon', 'Badger', 'Heron', 'Lynx', 'Marten', 'Osprey', 'Panda', 'Raven', 'Tiger',
  'Walrus', 'Yak', 'Comet', 'Quant', 'Trader', 'Oracle', 'Bull', 'Bear', 'Fox', 'Owl',
];
const BIOS = [
  'Reading the tape and the timeline.',
  'Long curiosity, short certainty.',
  'Here for the markets, staying for the memes.',
  'Calibrated optimist. Usually.',
  'Buys rumours, sells news.',
  'Small positions, big opinions.',
];
export const AVATAR_COUNT = 8;

type TRandom = () => number;
const pick = <T>(xs: readonly T[], rnd: TRandom): T => xs[Math.floor(rnd() * xs.length)]!;

/** A fresh username such as "SwiftOtter4821". */
export function generateUsername(rnd: TRandom = Math.random) {
  return `${pick(ADJECTIVES, rnd)}${pick(NOUNS, rnd)}${String(Math.floor(rnd() * 10000)).padStart(4, '0')}`;
}

/**
 * The username to try for a new account: the wished one cleaned up (attempt 0), then the wish
 * with a numeric suffix, or a generated one when there is no usable wish.
 */
export function usernameCandidate(wish: string | undefined, attempt: number, rnd: TRandom = Math.random) {
  const cleaned = (wish ?? '').replace(/[^A-Za-z0-9_]/g, '').slice(0, USERNAME_MAX);
  if (cleaned.length < USERNAME_MIN) return generateUsername(rnd);
  if (attempt === 0) return cleaned;
  const suffix = String(Math.floor(rnd() * 10000)).padStart(4, '0');
  return `${cleaned.slice(0, USERNAME_MAX - suffix.length)}${suffix}`;
}

/** A suggested profile for onboarding: display name, bio and one of the bundled avatars. */
export function generateProfileSuggestion(rnd: TRandom = Math.random) {
  const adjective = pick(ADJECTIVES, rnd);
  const noun = pick(NOUNS, rnd);
  return {
    username: `${adjective}${noun}${String(Math.floor(rnd() * 10000)).padStart(4, '0')}`,
    displayName: `${adjective} ${noun}`,
    bio: pick(BIOS, rnd),
    profileImageUrl: `/avatars/${1 + Math.floor(rnd() * AVATAR_COUNT)}.svg`,
  };
}

const CODE_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
/** An 8-character referral code without look-alike characters. */
export function generateReferralCode(rnd: TRandom = Math.random) {
  return Array.from({ length: 8 }, () => pick(CODE_ALPHABET.split(''), rnd)).join('');
}
