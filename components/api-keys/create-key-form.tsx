'use client';

import { useId, useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { Card, CardDescription, CardTitle } from '@/components/ui/card';
import { Notice } from '@/components/ui/error-state';
import { Field, describedBy } from '@/components/ui/field';
import { Input, PrefixedInput } from '@/components/ui/input';
import {
  API_KEY_ERROR_MESSAGES,
  EMPTY_API_KEY_DRAFT,
  SCOPES,
  buildApiKeyBody,
  useCreateApiKey,
  type TApiKeyDraft,
  type TApiKeyField,
  type TCreatedApiKey,
} from '@/lib/client/queries/api-keys';
import { describeError, getFieldErrors } from '@/lib/client/queries/errors';

const NAME_MAX = 64;

/** A day as a date input takes it (yyyy-mm-dd), in the reader's time zone. */
const dateValue = (ms: number) => {
  const d = new Date(ms);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
};

/**
 * Creating a key: a name, its scopes (read, trade, social) and optional caps (per order, per day,
 * leverage) and expiry. The body is checked by the contract's schema before it is sent (messages
 * under their fields once the player has tried to submit); the server's refusals show the same
 * way. On success the form empties and `onCreated` gets the answer with its one-time secret.
 */
export const CreateKeyForm = ({ userId, onCreated }: { userId: string; onCreated: (created: TCreatedApiKey) => void }) => {
  const id = useId();
  const create = useCreateApiKey(userId);
  const [draft, setDraft] = useState<TApiKeyDraft>(EMPTY_API_KEY_DRAFT);
  const [isTried, setIsTried] = useState(false);
  // "Now" for the expiry's sense check and its minimum: read when the form opens, and again on submit.
  const [nowMs, setNowMs] = useState(() => Date.now());

  const built = buildApiKeyBody(draft, nowMs);
  const serverErrors = getFieldErrors(create.error) as Partial<Record<string, string>>;
  const errorOf = (field: TApiKeyField) =>
    (isTried && !built.ok ? built.errors[field] : undefined) ?? serverErrors[field === 'expiresOn' ? 'expiresAt' : field];
  // An edit clears the server's last refusal: its messages were about the text before the edit.
  const edit = (change: (d: TApiKeyDraft) => TApiKeyDraft) => {
    if (create.isError) create.reset();
    setDraft(change);
  };
  const set = <K extends TApiKeyField>(field: K, value: TApiKeyDraft[K]) => edit((d) => ({ ...d, [field]: value }));
  const toggleScope = (scope: (typeof SCOPES)[number]['value'], isOn: boolean) =>
    edit((d) => ({ ...d, scopes: isOn ? [...d.scopes.filter((s) => s !== scope), scope] : d.scopes.filter((s) => s !== scope) }));

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    setIsTried(true);
    const now = Date.now();
    setNowMs(now);
    const fresh = buildApiKeyBody(draft, now);
    if (!fresh.ok) {
      // The first field with a message takes focus, so a keyboard user lands on what to fix.
      const first = (Object.keys(fresh.errors) as TApiKeyField[])[0];
      document.getElementById(first === 'scopes' ? `${id}-scope-read` : `${id}-${first}`)?.focus();
      return;
    }
    create.mutate(fresh.body, {
      onSuccess: (created) => {
        setDraft(EMPTY_API_KEY_DRAFT);
        setIsTried(false);
        onCreated(created);
      },
    });
  };

  const fieldIds = (field: TApiKeyField, hint?: string) => ({
    id: `${id}-${field}`,
    'aria-invalid': !!errorOf(field) || undefined,
    'aria-describedby': describedBy(`${id}-${field}`, { error: errorOf(field), hint }),
  });
  const amountHint = { maxOrderAmount: 'One order or trade (a perp: its margin).', dailyLimit: 'Committed per UTC day, open orders included.' };
  const scopesError = errorOf('scopes');
  const formError = create.isError && Object.keys(serverErrors).length === 0 ? describeError(create.error, API_KEY_ERROR_MESSAGES) : null;

  return (
    <Card aria-labelledby={`${id}-title`}>
      <CardTitle id={`${id}-title`}>Create a key</CardTitle>
      <CardDescription>A key acts as you, within its scopes and caps. Give each bot its own key, so you can revoke one without the others.</CardDescription>
      <form noValidate onSubmit={onSubmit} className="mt-5 flex flex-col gap-5">
        <Field id={`${id}-name`} label="Name" error={errorOf('name')} counter={{ value: draft.name.trim().length, max: NAME_MAX }}>
          <Input
            {...fieldIds('name')}
            aria-describedby={describedBy(`${id}-name`, { error: errorOf('name'), counter: true })}
            name="name"
            autoComplete="off"
            placeholder="market maker"
            value={draft.name}
            onChange={(e) => set('name', e.target.value)}
          />
        </Field>

        <fieldset aria-describedby={scopesError ? `${id}-scopes-error` : undefined} className="flex flex-col gap-2">
          <legend className="mb-1.5 text-sm font-medium text-ink">Scopes</legend>
          <div className="grid gap-2 sm:grid-cols-3">
            {SCOPES.map((s) => (
              <label
                key={s.value}
                htmlFor={`${id}-scope-${s.value}`}
                className="flex cursor-pointer gap-2.5 rounded-xl border border-line bg-elevated/50 px-3 py-2.5 has-checked:border-accent/60 has-checked:bg-accent-soft has-focus-visible:ring-2 has-focus-visible:ring-accent/40"
              >
                <input
                  id={`${id}-scope-${s.value}`}
                  type="checkbox"
                  className="mt-0.5 size-4 shrink-0 accent-[var(--color-accent)]"
                  checked={draft.scopes.includes(s.value)}
                  aria-describedby={`${id}-scope-${s.value}-hint`}
                  onChange={(e) => toggleScope(s.value, e.target.checked)}
                />
                <span className="flex flex-col">
                  <span className="text-sm font-medium text-ink">{s.label}</span>
                  <span id={`${id}-scope-${s.value}-hint`} className="text-xs text-ink-muted">
                    {s.description}
                  </span>
                </span>
              </label>
            ))}
          </div>
          <div aria-live="polite" className="empty:hidden">
            {scopesError && (
              <p id={`${id}-scopes-error`} className="text-sm text-down">
                {scopesError}
              </p>
            )}
          </div>
        </fieldset>

        <fieldset className="flex flex-col gap-3">
          <legend className="mb-1.5 text-sm font-medium text-ink">
            Caps <span className="font-normal text-ink-muted">(optional: empty means no cap)</span>
          </legend>
          <div className="grid gap-4 sm:grid-cols-3">
            {(['maxOrderAmount', 'dailyLimit'] as const).map((field) => (
              <Field key={field} id={`${id}-${field}`} label={field === 'maxOrderAmount' ? 'Per order' : 'Per day'} error={errorOf(field)} hint={amountHint[field]}>
                <PrefixedInput
                  prefix="$"
                  {...fieldIds(field, amountHint[field])}
                  name={field}
                  inputMode="decimal"
                  autoComplete="off"
                  placeholder="No cap"
                  value={draft[field]}
                  onChange={(e) => set(field, e.target.value)}
                />
              </Field>
            ))}
            <Field id={`${id}-maxLeverage`} label="Max leverage" error={errorOf('maxLeverage')} hint="For perps: 1 to 100.">
              <Input
                {...fieldIds('maxLeverage', 'For perps: 1 to 100.')}
                name="maxLeverage"
                inputMode="decimal"
                autoComplete="off"
                placeholder="No cap"
                value={draft.maxLeverage}
                onChange={(e) => set('maxLeverage', e.target.value)}
              />
            </Field>
          </div>
        </fieldset>

        <div className="sm:max-w-xs">
          <Field id={`${id}-expiresOn`} label="Expires on (optional)" error={errorOf('expiresOn')} hint="At the end of that day. Empty: until you revoke it.">
            <Input
              {...fieldIds('expiresOn', 'At the end of that day. Empty: until you revoke it.')}
              name="expiresOn"
              type="date"
              min={dateValue(nowMs)}
              value={draft.expiresOn}
              onChange={(e) => set('expiresOn', e.target.value)}
            />
          </Field>
        </div>

        {formError && <Notice tone="error">{formError}</Notice>}
        <div>
          <Button type="submit" isLoading={create.isPending}>
            Create key
          </Button>
        </div>
      </form>
    </Card>
  );
};
