'use client';

import { useId, useRef, useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { cn } from '@/components/ui/cn';
import { Notice } from '@/components/ui/error-state';
import { describedBy, Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { Textarea } from '@/components/ui/textarea';
import { describeError, getFieldErrors } from '@/lib/client/queries/errors';
import {
  buildReportBody,
  MODERATION_ERROR_MESSAGES,
  REPORT_CATEGORIES,
  REPORT_REASON_MAX,
  REPORT_REASON_MIN,
  reportDraftProblems,
  reportReasonLength,
  useCreateReport,
  type TReportCategory,
  type TReportTarget,
} from '@/lib/client/queries/moderation';
import { Modal } from './modal';

/**
 * The report form in a modal: the nine categories (each explained in a line), what happened
 * (10 to 2000 characters, counted as you type), an optional evidence link, then "Send report".
 * Problems show beside their field once the form was tried, the server's refusals (a report of
 * the same thing within 24 hours) above the buttons; a sent report says so and closes.
 */
export const ReportDialog = ({
  title,
  description,
  target,
  initialEvidence = '',
  onClose,
}: {
  title: string;
  description: string;
  target: TReportTarget;
  initialEvidence?: string;
  onClose: () => void;
}) => {
  const id = useId();
  const firstRadioRef = useRef<HTMLInputElement>(null);
  const [category, setCategory] = useState<TReportCategory | null>(null);
  const [reason, setReason] = useState('');
  const [evidence, setEvidence] = useState(initialEvidence);
  const [isTried, setIsTried] = useState(false);
  const report = useCreateReport();

  const draft = { category, reason, evidence };
  const problems = reportDraftProblems(draft);
  const serverFields = getFieldErrors(report.error);
  const shown = isTried ? { ...serverFields, ...problems } : serverFields;
  const reasonLength = reportReasonLength(reason);

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    setIsTried(true);
    if (Object.keys(problems).length > 0 || !category) return;
    report.mutate(buildReportBody(target, { category, reason, evidence }));
  };

  if (report.isSuccess) {
    return (
      <Modal title="Report sent" description="Thanks for telling us. A moderator will look at it; you will not be told who else reported it." onClose={onClose}>
        <div className="flex flex-col gap-4">
          <Notice tone="success">Your report was received and is waiting for review.</Notice>
          <div className="flex justify-end">
            <Button onClick={onClose}>Done</Button>
          </div>
        </div>
      </Modal>
    );
  }

  const reasonId = `${id}-reason`;
  const evidenceId = `${id}-evidence`;
  return (
    <Modal title={title} description={description} onClose={onClose} initialFocusRef={firstRadioRef}>
      <form onSubmit={onSubmit} noValidate aria-label={title} className="flex flex-col gap-5">
        <fieldset aria-describedby={shown.category ? `${id}-category-error` : undefined}>
          <legend className="text-sm font-medium text-ink">What is wrong?</legend>
          <div className="mt-2 flex flex-col gap-1.5">
            {REPORT_CATEGORIES.map((c, i) => {
              const optionId = `${id}-category-${c.value}`;
              const isChecked = category === c.value;
              return (
                <label
                  key={c.value}
                  htmlFor={optionId}
                  className={cn(
                    'flex cursor-pointer gap-3 rounded-lg border px-3 py-2 transition-colors',
                    isChecked ? 'border-accent/60 bg-accent-soft' : 'border-line hover:border-line-strong',
                  )}
                >
                  <input
                    ref={i === 0 ? firstRadioRef : undefined}
                    id={optionId}
                    type="radio"
                    name={`${id}-category`}
                    value={c.value}
                    checked={isChecked}
                    onChange={() => setCategory(c.value)}
                    aria-labelledby={`${optionId}-label`}
                    aria-describedby={`${optionId}-description`}
                    className="mt-1 accent-accent"
                  />
                  <span className="flex flex-col">
                    <span id={`${optionId}-label`} className="text-sm font-medium text-ink">
                      {c.label}
                    </span>
                    <span id={`${optionId}-description`} className="text-xs text-ink-muted">
                      {c.description}
                    </span>
                  </span>
                </label>
              );
            })}
          </div>
          {shown.category && (
            <p id={`${id}-category-error`} className="mt-1.5 text-sm text-down">
              {shown.category}
            </p>
          )}
        </fieldset>
        <Field
          id={reasonId}
          label="What happened"
          hint={`At least ${REPORT_REASON_MIN} characters. Only moderators read it.`}
          error={shown.reason}
          counter={{ value: reasonLength, max: REPORT_REASON_MAX }}
        >
          <Textarea
            id={reasonId}
            value={reason}
            onChange={(e) => setReason(e.target.value)}
            rows={4}
            aria-invalid={!!shown.reason || undefined}
            aria-describedby={describedBy(reasonId, { error: shown.reason, hint: true, counter: true })}
          />
        </Field>
        <Field id={evidenceId} label="Evidence link (optional)" hint="A link to a screenshot or page that shows the problem." error={shown.evidence}>
          <Input
            id={evidenceId}
            type="url"
            inputMode="url"
            placeholder="https://"
            value={evidence}
            onChange={(e) => setEvidence(e.target.value)}
            aria-invalid={!!shown.evidence || undefined}
            aria-describedby={describedBy(evidenceId, { error: shown.evidence, hint: true })}
          />
        </Field>
        {report.isError && Object.keys(serverFields).length === 0 && <Notice tone="error">{describeError(report.error, MODERATION_ERROR_MESSAGES)}</Notice>}
        <div className="flex flex-wrap justify-end gap-2">
          <Button variant="ghost" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" isLoading={report.isPending}>
            Send report
          </Button>
        </div>
      </form>
    </Modal>
  );
};
