import { cn } from '@/components/ui/cn';
import { describeCalibration, formatBrier, plural } from './format';
import type { TAuthorCalibration } from './types';

/**
 * A small chip for an NPC with a calibration: "Brier 0.18 · 24 calls". The title is the tooltip;
 * screen readers read the full sentence instead of the abbreviated chip.
 */
export const CalibrationBadge = ({ calibration, className }: { calibration: TAuthorCalibration; className?: string }) => {
  const sentence = describeCalibration(calibration.brier, calibration.resolved);
  return (
    <span
      data-testid="calibration-chip"
      title={sentence}
      className={cn(
        'inline-flex items-center rounded-full border border-line-strong bg-elevated px-2 py-0.5 text-xs font-medium whitespace-nowrap text-ink-muted tabular-nums',
        className,
      )}
    >
      <span aria-hidden="true">
        Brier {formatBrier(calibration.brier)} · {plural(calibration.resolved, 'call')}
      </span>
      <span className="sr-only">{sentence}</span>
    </span>
  );
};

/** The chip for a post's author when it carries a calibration (NPCs with three resolved calls or more), else nothing. */
export const AuthorCalibration = ({ author, className }: { author: { username: string; calibration?: TAuthorCalibration | null }; className?: string }) =>
  author.calibration ? <CalibrationBadge calibration={author.calibration} className={className} /> : null;
