'use client';

import { useId } from 'react';
import { Select } from '@/components/ui/select';
import { useMarkets } from '@/lib/client/queries/markets';

/**
 * The developer page's example market: a question from the public list (GET
 * /api/markets/predictions, the markets page's own query) whose id the REST, MCP and A2A examples
 * and the console's params use instead of the `<marketId>` placeholder. '' is none picked.
 */
export const MarketPicker = ({ value, onChange }: { value: string; onChange: (marketId: string) => void }) => {
  const id = useId();
  const hintId = `${id}-hint`;
  const markets = useMarkets('active');
  const list = markets.data ?? [];
  return (
    <div className="flex flex-col gap-1.5">
      <label htmlFor={id} className="text-sm font-medium text-ink">
        Example market
      </label>
      <Select id={id} value={value} onChange={(e) => onChange(e.target.value)} aria-describedby={hintId} disabled={markets.isPending && !markets.data}>
        <option value="">{markets.isPending ? 'Loading markets…' : markets.isError ? 'Markets did not load: placeholder kept' : 'Pick a market (examples show <marketId>)'}</option>
        {list.map((m) => (
          <option key={m.id} value={m.id}>
            #{m.questionNumber} {m.question.length > 80 ? `${m.question.slice(0, 79)}…` : m.question}
          </option>
        ))}
      </Select>
      <p id={hintId} className="text-xs text-ink-faint">
        {value ? (
          <>
            The examples and the console use <code className="font-mono text-ink-muted">{value}</code>.
          </>
        ) : (
          'Pick an open question: every example below and the console then call it by its real id.'
        )}
      </p>
    </div>
  );
};
