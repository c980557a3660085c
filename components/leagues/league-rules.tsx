import { Card, CardDescription, CardTitle } from '@/components/ui/card';
import { formulaSteps, type TLeagueRules } from '@/lib/client/queries/leagues';
import { formatShare } from './format';

/** How the league works, from the rules the server plays by: seating, qualifying, the zones and the score's formula step by step. */
export const LeagueRules = ({ rules }: { rules: TLeagueRules }) => (
  <Card aria-labelledby="league-rules-title" className="flex flex-col gap-5">
    <div>
      <CardTitle id="league-rules-title">How the league works</CardTitle>
      <CardDescription>
        Each week of game time is a season. Players are placed in one of five tiers, Bronze to Diamond, by the size of their account, then split into
        divisions of up to {rules.divisionSize} players of a similar size. Within a division, everyone is ranked by the same score.
      </CardDescription>
    </div>
    <dl className="grid gap-3 text-sm sm:grid-cols-3">
      <div className="rounded-xl border border-line bg-elevated/60 px-4 py-3">
        <dt className="font-medium text-ink">To qualify</dt>
        <dd className="mt-1 text-ink-muted">
          At least {rules.minTrades} trades and {rules.minDays} days of daily returns in the season. Until then a player is listed but not ranked.
        </dd>
      </div>
      <div className="rounded-xl border border-up/30 bg-up-soft px-4 py-3">
        <dt className="font-medium text-up">↑ Promotion zone</dt>
        <dd className="mt-1 text-ink-muted">The top {formatShare(rules.promoteShare)} of a division&apos;s qualified players move up a tier when the season ends.</dd>
      </div>
      <div className="rounded-xl border border-down/30 bg-down-soft px-4 py-3">
        <dt className="font-medium text-down">↓ Relegation zone</dt>
        <dd className="mt-1 text-ink-muted">The bottom {formatShare(rules.relegateShare)} move down a tier. Unqualified players neither rise nor fall.</dd>
      </div>
    </dl>
    <section aria-labelledby="league-formula-title">
      <h3 id="league-formula-title" className="text-sm font-semibold text-ink">
        The score
      </h3>
      <ol className="mt-2 flex list-decimal flex-col gap-1.5 pl-5 text-sm leading-relaxed text-ink-muted marker:text-ink-faint">
        {formulaSteps(rules.formula).map((step) => (
          <li key={step}>{step}</li>
        ))}
      </ol>
      <p className="mt-3 text-xs text-ink-faint">
        The volatility floor is {formatShare(rules.volatilityFloor)}: a nearly flat equity curve counts as that steady, not steadier.
      </p>
    </section>
  </Card>
);
