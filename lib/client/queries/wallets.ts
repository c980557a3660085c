/**
 * Connecting a wallet in the browser, with proof: ask the injected wallet for its account, ask the
 * server for a challenge for that address (POST /api/users/wallet/challenge), have the wallet sign
 * it (personal_sign), and bind it with the signature through the waitlist wallet bonus (which pays
 * the wallet_connected milestone). `step` says which of these is under way, for the button's
 * label. Success refreshes the user, points and waitlist caches through their factories.
 * I/O: the typed client and the injected wallet (lib/client/ethereum).
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api } from '@/lib/client/api';
import { requestWalletAddress, signWithWallet } from '@/lib/client/ethereum';
import { waitlistWalletBonus } from '@/lib/contracts/waitlist';
import { walletsChallenge } from '@/lib/contracts/wallets';
import type { TErrorMessages } from './errors';
import { pointsKeys } from './points';
import { getMeQueryOptions, userKeys } from './users';
import { waitlistKeys } from './waitlist';

export type TConnectStep = 'account' | 'challenge' | 'sign' | 'bind';

/** The sentences a failed wallet binding shows (wallet-side failures carry their own). */
export const WALLET_ERROR_MESSAGES: TErrorMessages = {
  INVALID_SIGNATURE: 'The signature did not match this wallet. Sign with the account you are connecting.',
  CHALLENGE_EXPIRED: 'The request to sign expired. Try again.',
  CHALLENGE_USED: 'That signature was already used. Try again.',
  CHALLENGE_NOT_FOUND: 'The request to sign was replaced by a newer one. Try again.',
  CHALLENGE_MISMATCH: 'The wallet account changed while signing. Try again.',
  WALLET_TAKEN: 'Another player already connected this wallet.',
  BONUS_ALREADY_CLAIMED: 'Another wallet is already connected to your account.',
};

export function useConnectWallet() {
  const qc = useQueryClient();
  const [step, setStep] = useState<TConnectStep | null>(null);
  const mutation = useMutation({
    mutationFn: async () => {
      try {
        setStep('account');
        const address = await requestWalletAddress();
        setStep('challenge');
        const { challenge } = await api(walletsChallenge, { body: { address } });
        setStep('sign');
        const signature = await signWithWallet(address, challenge.message);
        setStep('bind');
        return await api(waitlistWalletBonus, { body: { walletAddress: address, signature, challengeId: challenge.id } });
      } finally {
        setStep(null);
      }
    },
    onSuccess: () =>
      Promise.all([
        qc.invalidateQueries({ queryKey: getMeQueryOptions().queryKey }),
        qc.invalidateQueries({ queryKey: userKeys.profiles() }),
        qc.invalidateQueries({ queryKey: pointsKeys.all }),
        qc.invalidateQueries({ queryKey: waitlistKeys.all }),
      ]),
  });
  return { ...mutation, step };
}
