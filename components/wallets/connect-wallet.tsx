'use client';

import { useId, useSyncExternalStore } from 'react';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardDescription, CardTitle } from '@/components/ui/card';
import { Notice } from '@/components/ui/error-state';
import { getInjectedProvider, isWalletError } from '@/lib/client/ethereum';
import { describeError } from '@/lib/client/queries/errors';
import { useSession } from '@/lib/client/queries/users';
import { WALLET_ERROR_MESSAGES, useConnectWallet, type TConnectStep } from '@/lib/client/queries/wallets';

const STEP_LABELS: Record<TConnectStep, string> = {
  account: 'Choose an account in your wallet…',
  challenge: 'Preparing the message to sign…',
  sign: 'Sign the message in your wallet…',
  bind: 'Connecting your wallet…',
};

// Extensions inject window.ethereum before the page's scripts run; MetaMask also announces a late injection.
const subscribe = (onChange: () => void) => {
  window.addEventListener('ethereum#initialized', onChange);
  return () => window.removeEventListener('ethereum#initialized', onChange);
};
const useHasInjectedWallet = () =>
  useSyncExternalStore(
    subscribe,
    () => !!getInjectedProvider(),
    () => false,
  );

/**
 * Connect a wallet with proof of ownership: the browser's wallet signs a message the server made
 * for this account (nothing is sent on chain). Without a wallet extension it says so.
 */
export const ConnectWallet = ({ heading = 'Wallet' }: { heading?: string }) => {
  const id = useId();
  const session = useSession();
  const hasWallet = useHasInjectedWallet();
  const connect = useConnectWallet();
  const connected = session.user?.walletAddress ?? null;
  const error = connect.isError ? (isWalletError(connect.error) ? connect.error.message : describeError(connect.error, WALLET_ERROR_MESSAGES)) : undefined;

  return (
    <section aria-labelledby={`${id}-title`} className="flex flex-col gap-3">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h3 id={`${id}-title`} className="text-sm font-semibold text-ink">
          {heading}
        </h3>
        {connected ? <Badge tone="up">Connected</Badge> : <Badge>Not connected</Badge>}
      </div>
      {connected ? (
        <p className="text-sm break-all text-ink-muted">
          <span className="sr-only">Connected wallet: </span>
          <span className="font-mono text-ink">{connected}</span>
        </p>
      ) : (
        <p id={`${id}-hint`} className="text-xs text-ink-muted">
          Prove you own a wallet by signing a message with it, for a one-time bonus. Signing sends no transaction and costs nothing.
        </p>
      )}
      {connect.isSuccess && (
        <Notice tone="success">
          Connected {connect.data.walletAddress}.{connect.data.bonusAwarded > 0 ? ` You earned ${connect.data.bonusAwarded} points.` : ''}
        </Notice>
      )}
      {!connected && !hasWallet && (
        <Notice tone="info">
          <span id={`${id}-missing`}>
            No wallet extension was found in this browser. Install one (such as MetaMask or Rabby), then reload this page to connect.
          </span>
        </Notice>
      )}
      {error && <Notice tone="error">{error}</Notice>}
      <div role="status" aria-live="polite" className="text-xs text-ink-muted">
        {connect.step ? STEP_LABELS[connect.step] : ''}
      </div>
      {!connected && (
        <Button
          variant="secondary"
          size="sm"
          className="self-start"
          isLoading={connect.isPending}
          disabled={!hasWallet}
          aria-describedby={hasWallet ? `${id}-hint` : `${id}-hint ${id}-missing`}
          onClick={() => connect.mutate()}
        >
          {connect.isError ? 'Try again' : 'Connect wallet'}
        </Button>
      )}
    </section>
  );
};

/** Settings: the wallet connection in its own card. */
export const WalletCard = () => {
  const session = useSession();
  if (!session.user) return null;
  return (
    <Card aria-labelledby="wallet-card-title" className="flex flex-col gap-4">
      <div>
        <CardTitle id="wallet-card-title">Wallet</CardTitle>
        <CardDescription>A wallet is connected only with your signature: nobody can claim an address they do not hold.</CardDescription>
      </div>
      <ConnectWallet heading="Your wallet" />
    </Card>
  );
};
