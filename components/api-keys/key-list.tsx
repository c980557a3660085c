'use client';

import { useEffect, useRef, useState } from 'react';
import { Modal } from '@/components/moderation/modal';
import { Badge, type TBadgeTone } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Notice } from '@/components/ui/error-state';
import { formatDateTime, formatMoney, formatRelativeTime } from '@/components/ui/format';
import { API_KEY_ERROR_MESSAGES, SCOPE_WORDS, apiKeyState, sortApiKeys, useRevokeApiKey, type TApiKey, type TApiKeyState } from '@/lib/client/queries/api-keys';
import { describeError } from '@/lib/client/queries/errors';

const STATE_BADGE: Record<TApiKeyState, { tone: TBadgeTone; label: string }> = {
  active: { tone: 'up', label: 'Active' },
  expired: { tone: 'warn', label: 'Expired' },
  revoked: { tone: 'down', label: 'Revoked' },
};

const capText = (value: string | null, format: (v: string) => string, none: string) => (value === null ? none : format(value));

/** A key's facts as term and value pairs: caps, dates, last use and its dead-man switch. */
const KeyFacts = ({ apiKey, state, nowMs }: { apiKey: TApiKey; state: TApiKeyState; nowMs: number }) => {
  const facts: { term: string; value: string }[] = [
    { term: 'Per order', value: capText(apiKey.maxOrderAmount, formatMoney, 'No cap') },
    { term: 'Per day', value: capText(apiKey.dailyLimit, formatMoney, 'No limit') },
    { term: 'Max leverage', value: capText(apiKey.maxLeverage, (v) => `${v}×`, 'No cap') },
    { term: state === 'expired' ? 'Expired' : 'Expires', value: apiKey.expiresAt ? formatDateTime(apiKey.expiresAt) : 'Never' },
    { term: 'Created', value: formatDateTime(apiKey.createdAt) },
    { term: 'Last used', value: apiKey.lastUsedAt ? formatRelativeTime(apiKey.lastUsedAt, nowMs) : 'Never' },
  ];
  if (apiKey.revokedAt) facts.push({ term: 'Revoked', value: formatDateTime(apiKey.revokedAt) });
  facts.push({
    term: 'Heartbeat',
    value: apiKey.heartbeat
      ? `Armed, every ${apiKey.heartbeat.timeoutSeconds} s; orders cancelled if none by ${formatDateTime(apiKey.heartbeat.deadline)}`
      : 'Not armed',
  });
  return (
    <dl className="grid grid-cols-2 gap-x-4 gap-y-2 text-sm sm:grid-cols-3">
      {facts.map((f) => (
        <div key={f.term} className={f.term === 'Heartbeat' ? 'col-span-2 sm:col-span-3' : undefined}>
          <dt className="text-xs text-ink-faint">{f.term}</dt>
          <dd className="text-ink tabular-nums">{f.value}</dd>
        </div>
      ))}
    </dl>
  );
};

/**
 * The owner's keys, live ones first: each with its name, prefix, state, scopes as chips and its
 * facts, and a Revoke button (live keys) that asks for confirmation in a dialog first.
 */
export const KeyList = ({ userId, keys }: { userId: string; keys: readonly TApiKey[] }) => {
  const revoke = useRevokeApiKey(userId);
  const [confirming, setConfirming] = useState<TApiKey | null>(null);
  const [message, setMessage] = useState<{ tone: 'success' | 'error'; text: string } | null>(null);
  const cancelRef = useRef<HTMLButtonElement>(null);
  // "Now" for expiries and "last used": read on mount, then once a minute.
  const [nowMs, setNowMs] = useState(() => Date.now());
  useEffect(() => {
    const t = setInterval(() => setNowMs(Date.now()), 60_000);
    return () => clearInterval(t);
  }, []);

  const onRevoke = (apiKey: TApiKey) => {
    setMessage(null);
    revoke.mutate(apiKey, {
      onSuccess: () => setMessage({ tone: 'success', text: `Revoked “${apiKey.name}”. Every call with it is refused from now on.` }),
      onError: (e) => setMessage({ tone: 'error', text: describeError(e, API_KEY_ERROR_MESSAGES) }),
      onSettled: () => setConfirming(null),
    });
  };

  return (
    <div className="flex flex-col gap-3">
      {message && <Notice tone={message.tone}>{message.text}</Notice>}
      <ul aria-label="Your API keys" className="flex flex-col gap-3">
        {sortApiKeys(keys, nowMs).map((k) => {
          const state = apiKeyState(k, nowMs);
          const badge = STATE_BADGE[state];
          return (
            <li key={k.id}>
              <article aria-label={k.name} className={`flex flex-col gap-3 rounded-2xl border border-line bg-surface p-4 sm:p-5 ${state === 'active' ? '' : 'opacity-80'}`}>
                <div className="flex flex-wrap items-start justify-between gap-3">
                  <div className="min-w-0">
                    <div className="flex flex-wrap items-center gap-2">
                      <h3 className="truncate text-base font-semibold text-ink">{k.name}</h3>
                      <Badge tone={badge.tone}>{badge.label}</Badge>
                    </div>
                    <p className="mt-0.5 font-mono text-xs text-ink-muted">
                      <span className="sr-only">Prefix: </span>
                      {k.prefix}…
                    </p>
                  </div>
                  {state !== 'revoked' && (
                    <Button variant="danger" size="sm" onClick={() => setConfirming(k)} aria-label={`Revoke ${k.name}`}>
                      Revoke
                    </Button>
                  )}
                </div>
                <ul aria-label="Scopes" className="flex flex-wrap gap-1.5">
                  {k.scopes.map((s) => (
                    <li key={s}>
                      <Badge tone="accent" title={SCOPE_WORDS[s].description}>
                        {SCOPE_WORDS[s].label}
                      </Badge>
                    </li>
                  ))}
                </ul>
                <KeyFacts apiKey={k} state={state} nowMs={nowMs} />
              </article>
            </li>
          );
        })}
      </ul>
      {confirming && (
        <Modal
          title={`Revoke “${confirming.name}”?`}
          description="Every call with this key is refused from now on (401), and a bot using it stops. This cannot be undone."
          onClose={() => !revoke.isPending && setConfirming(null)}
          initialFocusRef={cancelRef}
        >
          <div className="flex flex-wrap justify-end gap-2">
            <Button ref={cancelRef} variant="secondary" onClick={() => setConfirming(null)} disabled={revoke.isPending}>
              Keep it
            </Button>
            <Button variant="danger" isLoading={revoke.isPending} onClick={() => onRevoke(confirming)}>
              Revoke key
            </Button>
          </div>
        </Modal>
      )}
    </div>
  );
};
