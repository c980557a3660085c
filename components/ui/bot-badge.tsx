import { Badge } from './badge';

/**
 * The mark of a player who trades through an API key (a bot), beside their name. The title shows
 * on hover; screen readers hear "Bot, trades through an API key".
 */
export const BotBadge = ({ className }: { className?: string }) => (
  <Badge tone="neutral" title="Trades through an API key" className={className}>
    Bot<span className="sr-only">, trades through an API key</span>
  </Badge>
);
