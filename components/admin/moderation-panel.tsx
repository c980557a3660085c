'use client';

import { useId, useState } from 'react';
import { Button } from '@/components/ui/button';
import { Card, CardTitle } from '@/components/ui/card';
import { Notice } from '@/components/ui/error-state';
import { Field, Label } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { Select } from '@/components/ui/select';
import { ADMIN_ERROR_MESSAGES, useConsoleRole, type TAdminReport } from '@/lib/client/queries/admin';
import { describeError } from '@/lib/client/queries/errors';
import { BAN_LENGTHS, reasonText, useModerateContent, useModerationReasons, useTimedBan, useWarnUser } from './moderation-queries';

/**
 * Sanctions that fit the offence, from a report: remove (or restore) the reported post, warn the
 * reported user, or ban them for a day, a week or until lifted (administrators), each with a
 * canned reason ("Other" takes free text). The author is told the reason; the audit trail keeps it.
 */
export const ModerationPanel = ({ report }: { report: TAdminReport }) => {
  const id = useId();
  const { role } = useConsoleRole();
  const reasons = useModerationReasons();
  const content = useModerateContent();
  const warn = useWarnUser();
  const ban = useTimedBan();
  const [code, setCode] = useState<string>('spam');
  const [other, setOther] = useState('');
  const [pending, setPending] = useState<string | null>(null);
  const [result, setResult] = useState<{ tone: 'success' | 'error'; text: string } | null>(null);
  const post = report.reportedPost;
  const user = report.reportedUser;
  if (!post && !user) return null;

  const reason = reasonText(code, other);
  const run = async (key: string, fn: () => Promise<{ message: string }>) => {
    setResult(null);
    if (!reason) return setResult({ tone: 'error', text: 'Pick a reason, or write one under "Other".' });
    setPending(key);
    try {
      const res = await fn();
      setResult({ tone: 'success', text: res.message });
    } catch (e) {
      setResult({ tone: 'error', text: describeError(e, { ...ADMIN_ERROR_MESSAGES, CONFLICT: 'Someone already did that: the report has been reloaded.' }) });
    } finally {
      setPending(null);
    }
  };
  const busy = pending !== null;

  return (
    <Card aria-labelledby={`${id}-title`} className="flex flex-col gap-4">
      <CardTitle id={`${id}-title`}>Sanction</CardTitle>
      <div className="flex flex-col gap-1">
        <Label htmlFor={`${id}-reason`} className="text-xs text-ink-muted">
          Reason (shown to the author)
        </Label>
        <Select id={`${id}-reason`} value={code} onChange={(e) => setCode(e.target.value)} className="min-w-[11rem]">
          {reasons.data.reasons.map((r) => (
            <option key={r.code} value={r.code}>
              {r.label}
            </option>
          ))}
        </Select>
      </div>
      {code === 'other' && (
        <Field id={`${id}-other`} label="Your reason">
          <Input id={`${id}-other`} value={other} maxLength={500} onChange={(e) => setOther(e.target.value)} />
        </Field>
      )}
      <div role="group" aria-label="Sanctions" className="flex flex-wrap gap-2">
        {post &&
          (post.removed ? (
            <Button
              variant="secondary"
              isLoading={pending === 'restore'}
              disabled={busy}
              onClick={() => run('restore', () => content.mutateAsync({ kind: 'post', id: post.id, act: 'restore', reportId: report.id }))}
            >
              Restore post
            </Button>
          ) : (
            <Button
              variant="danger"
              isLoading={pending === 'remove'}
              disabled={busy}
              onClick={() => run('remove', () => content.mutateAsync({ kind: 'post', id: post.id, act: 'remove', reason, reportId: report.id }))}
            >
              Remove post
            </Button>
          ))}
        {user && (
          <Button variant="secondary" isLoading={pending === 'warn'} disabled={busy} onClick={() => run('warn', () => warn.mutateAsync({ userId: user.id, reason, reportId: report.id }))}>
            Warn user
          </Button>
        )}
        {user &&
          role === 'admin' &&
          !user.isBanned &&
          BAN_LENGTHS.map((b) => (
            <Button
              key={b.label}
              variant="danger"
              isLoading={pending === b.label}
              disabled={busy}
              onClick={() => run(b.label, () => ban.mutateAsync({ userId: user.id, reason, durationHours: b.durationHours }))}
            >
              {b.label}
            </Button>
          ))}
      </div>
      {post?.removed && <p className="text-xs text-ink-muted">The post is removed: {post.removed.reason ?? 'no reason given'}.</p>}
      {result && <Notice tone={result.tone}>{result.text}</Notice>}
    </Card>
  );
};
