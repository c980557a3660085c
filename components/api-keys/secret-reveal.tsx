'use client';

import { useEffect, useId, useRef } from 'react';
import { Button } from '@/components/ui/button';
import { Card, CardDescription, CardTitle } from '@/components/ui/card';
import { CopyButton } from '@/components/ui/copy-button';
import { Notice } from '@/components/ui/error-state';
import { Input } from '@/components/ui/input';
import type { TCreatedApiKey } from '@/lib/client/queries/api-keys';

/**
 * The one time a key's secret is shown: right after creation, in a read-only field (selected on
 * focus) with a copy button, a warning that it is shown only once, and a dismiss. Its heading takes
 * focus when it appears, so keyboard and screen-reader users land on it.
 */
export const SecretReveal = ({ created, onDismiss }: { created: TCreatedApiKey; onDismiss: () => void }) => {
  const id = useId();
  const headingRef = useRef<HTMLHeadingElement>(null);
  useEffect(() => headingRef.current?.focus(), [created.apiKey.id]);

  return (
    <Card aria-labelledby={`${id}-title`} className="flex flex-col gap-4 border-accent/50">
      <div>
        <CardTitle id={`${id}-title`} ref={headingRef} tabIndex={-1} className="focus-visible:outline-none">
          Your new key “{created.apiKey.name}”
        </CardTitle>
        <CardDescription>Use it as a bearer token: Authorization: Bearer pm_…</CardDescription>
      </div>
      <Notice tone="info" className="border-warn/40 bg-warn-soft text-ink">
        <strong className="font-semibold">This secret is shown only once.</strong> Copy it now and keep it somewhere safe: it cannot be shown again. Lost it? Revoke
        the key and create another.
      </Notice>
      <div className="flex flex-col gap-1.5">
        <label htmlFor={`${id}-secret`} className="text-sm font-medium text-ink">
          Secret
        </label>
        <div className="flex flex-col gap-2 sm:flex-row sm:items-center">
          <Input
            id={`${id}-secret`}
            readOnly
            value={created.secret}
            onFocus={(e) => e.currentTarget.select()}
            className="font-mono text-xs sm:text-sm"
            spellCheck={false}
          />
          <CopyButton text={created.secret} label="Copy the secret" variant="primary" size="md">
            Copy secret
          </CopyButton>
        </div>
      </div>
      <div>
        <Button variant="secondary" onClick={onDismiss}>
          I saved it, hide the secret
        </Button>
      </div>
    </Card>
  );
};
