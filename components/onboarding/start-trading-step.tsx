'use client';

import { LinkButton } from '@/components/ui/button';
import { Card, CardDescription, CardTitle } from '@/components/ui/card';

/**
 * The wizard's last step: the way into the game. Shown as soon as the profile is saved, under the
 * on-chain step (whose registration need not finish before one trades).
 */
export const StartTradingStep = () => (
  <Card aria-labelledby="start-trading-title" className="flex flex-col gap-4" data-testid="onboarding-start-trading">
    <div>
      <CardTitle id="start-trading-title">Start trading</CardTitle>
      <CardDescription>
        Your play-money balance is ready. Pick a question on the markets page and buy YES or NO, or follow what other players trade on the
        feed.
      </CardDescription>
    </div>
    <div className="flex flex-col gap-2 sm:flex-row">
      <LinkButton href="/markets">Start trading</LinkButton>
      <LinkButton href="/" variant="secondary">
        Go to the feed
      </LinkButton>
    </div>
  </Card>
);
