'use client';

import { useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { Card, CardDescription, CardTitle } from '@/components/ui/card';
import { Notice } from '@/components/ui/error-state';
import { Field, describedBy } from '@/components/ui/field';
import { Input, PrefixedInput } from '@/components/ui/input';
import { describeError, getFieldErrors, hasErrorCode } from '@/lib/client/queries/errors';
import { parsePointsAmount, POINTS_ERROR_MESSAGES, useTransferPoints, type TTransferInput } from '@/lib/client/queries/points';
import { isValidUsername } from '@/lib/users/names';

/** Send points to another player by username: fill in, review, confirm. */
export const TransferForm = ({ balance }: { balance: number }) => {
  const [username, setUsername] = useState('');
  const [amountText, setAmountText] = useState('');
  const [reason, setReason] = useState('');
  const [isTouched, setIsTouched] = useState(false);
  const [pending, setPending] = useState<TTransferInput | null>(null);
  const transfer = useTransferPoints();

  const recipient = username.trim().replace(/^@/, '');
  const parsed = parsePointsAmount(amountText);
  const usernameProblem = !isValidUsername(recipient) ? 'Enter a username: 3 to 20 letters, digits or underscores.' : undefined;
  const amountProblem = 'problem' in parsed ? parsed.problem : parsed.amount > balance ? `You have ${balance.toLocaleString('en-US')} points.` : undefined;

  const serverFields = transfer.isError ? getFieldErrors(transfer.error) : {};
  const usernameError =
    (isTouched ? usernameProblem : undefined) ??
    (hasErrorCode(transfer.error, 'USER_NOT_FOUND', 'CANNOT_TRANSFER_TO_SELF') ? describeError(transfer.error, POINTS_ERROR_MESSAGES) : undefined);
  const amountError =
    (isTouched ? amountProblem : undefined) ??
    (hasErrorCode(transfer.error, 'INSUFFICIENT_POINTS') ? describeError(transfer.error, POINTS_ERROR_MESSAGES) : serverFields.amount);
  const reasonError = serverFields.reason;
  const otherError =
    transfer.isError && !usernameError && !amountError && !reasonError ? describeError(transfer.error, POINTS_ERROR_MESSAGES) : undefined;

  const edit = () => {
    setPending(null);
    if (!transfer.isIdle) transfer.reset();
  };

  const onReview = (e: FormEvent) => {
    e.preventDefault();
    setIsTouched(true);
    if (usernameProblem || amountProblem || 'problem' in parsed) return;
    if (!transfer.isIdle) transfer.reset();
    setPending({ username: recipient, amount: parsed.amount, reason: reason.trim() || undefined });
  };

  const onConfirm = () => {
    if (!pending) return;
    transfer.mutate(pending, {
      onSuccess: () => {
        setPending(null);
        setUsername('');
        setAmountText('');
        setReason('');
        setIsTouched(false);
      },
      onError: () => setPending(null),
    });
  };

  const amountHint = 'Whole points only.';
  return (
    <Card aria-labelledby="transfer-title" className="flex flex-col gap-5">
      <div>
        <CardTitle id="transfer-title">Send points</CardTitle>
        <CardDescription>Give some of your points to another player. Transfers cannot be undone.</CardDescription>
      </div>
      <form onSubmit={onReview} noValidate className="flex flex-col gap-4" aria-label="Send points">
        <Field id="transfer-username" label="Recipient username" error={usernameError}>
          <PrefixedInput
            prefix="@"
            id="transfer-username"
            autoCapitalize="none"
            autoComplete="off"
            spellCheck={false}
            maxLength={21}
            value={username}
            disabled={!!pending}
            onChange={(e) => {
              setUsername(e.target.value);
              edit();
            }}
            aria-invalid={!!usernameError}
            aria-describedby={describedBy('transfer-username', { error: usernameError })}
          />
        </Field>
        <Field id="transfer-amount" label="Amount" hint={amountHint} error={amountError}>
          <Input
            id="transfer-amount"
            inputMode="numeric"
            autoComplete="off"
            value={amountText}
            disabled={!!pending}
            onChange={(e) => {
              setAmountText(e.target.value);
              edit();
            }}
            aria-invalid={!!amountError}
            aria-describedby={describedBy('transfer-amount', { error: amountError, hint: amountHint })}
          />
        </Field>
        <Field id="transfer-reason" label="Reason (optional)" error={reasonError} counter={{ value: reason.length, max: 200 }}>
          <Input
            id="transfer-reason"
            maxLength={200}
            value={reason}
            disabled={!!pending}
            onChange={(e) => {
              setReason(e.target.value);
              edit();
            }}
            aria-invalid={!!reasonError}
            aria-describedby={describedBy('transfer-reason', { error: reasonError, counter: true })}
          />
        </Field>
        {!pending && (
          <Button type="submit" variant="secondary" className="self-start">
            Review transfer
          </Button>
        )}
      </form>

      {pending && (
        <div role="group" aria-labelledby="transfer-confirm-text" className="flex flex-col gap-3 rounded-xl border border-accent/30 bg-accent-soft p-4">
          <p id="transfer-confirm-text" className="text-sm text-ink">
            Send <strong className="tabular-nums">{pending.amount.toLocaleString('en-US')} points</strong> to <strong>@{pending.username}</strong>
            {pending.reason ? ` for “${pending.reason}”` : ''}?
          </p>
          <div className="flex flex-col gap-2 sm:flex-row">
            <Button onClick={onConfirm} isLoading={transfer.isPending}>
              Confirm transfer
            </Button>
            <Button variant="ghost" onClick={edit} disabled={transfer.isPending}>
              Edit
            </Button>
          </div>
        </div>
      )}
      {otherError && <Notice tone="error">{otherError}</Notice>}
      {transfer.isSuccess && (
        <Notice tone="success">
          Sent {transfer.data.transfer.amount.toLocaleString('en-US')} points to @{transfer.data.recipient.username}. You have{' '}
          {transfer.data.pointsAfter.toLocaleString('en-US')} points left.
        </Notice>
      )}
    </Card>
  );
};
