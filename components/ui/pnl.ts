/**
 * The colour of a profit or loss (and any signed amount): green above zero, red below, a neutral
 * tone at zero. Shared by markets, perps, the portfolio and the wallet.
 */
import { signOf } from './format';

/** A P&L as the API sends it (a JSON number): below half a cent it reads as zero, so it is neutral. */
export const pnlClass = (value: number) => (value > 0.004 ? 'text-up' : value < -0.004 ? 'text-down' : 'text-ink-muted');

/** An exact decimal string, by its sign; `zeroClass` when it is zero. */
export const signedAmountClass = (value: string, zeroClass = 'text-ink-muted') => {
  const sign = signOf(value);
  return sign > 0 ? 'text-up' : sign < 0 ? 'text-down' : zeroClass;
};
