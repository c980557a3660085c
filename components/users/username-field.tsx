'use client';

import { Field, describedBy } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import type { ReactNode } from 'react';

/** The username input with its @ prefix, hint and error: the profile editor and the onboarding wizard. */
export const UsernameField = (props: { id: string; value: string; onChange: (value: string) => void; hint?: ReactNode; error?: string }) => (
  <Field id={props.id} label="Username" hint={props.hint} error={props.error}>
    <div className="relative">
      <span aria-hidden="true" className="pointer-events-none absolute inset-y-0 left-3 flex items-center text-sm text-ink-faint">
        @
      </span>
      <Input
        id={props.id}
        name="username"
        autoComplete="username"
        autoCapitalize="none"
        spellCheck={false}
        maxLength={20}
        className="pl-7"
        value={props.value}
        onChange={(e) => props.onChange(e.target.value)}
        aria-invalid={!!props.error}
        aria-describedby={describedBy(props.id, { error: props.error, hint: props.hint })}
      />
    </div>
  </Field>
);
