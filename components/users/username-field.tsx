'use client';

import { Field, describedBy } from '@/components/ui/field';
import { PrefixedInput } from '@/components/ui/input';
import type { ReactNode } from 'react';

/** The username input with its @ prefix, hint and error: the profile editor and the onboarding wizard. */
export const UsernameField = (props: { id: string; value: string; onChange: (value: string) => void; hint?: ReactNode; error?: string }) => (
  <Field id={props.id} label="Username" hint={props.hint} error={props.error}>
    <PrefixedInput
      prefix="@"
      id={props.id}
      name="username"
      autoComplete="username"
      autoCapitalize="none"
      spellCheck={false}
      maxLength={20}
      value={props.value}
      onChange={(e) => props.onChange(e.target.value)}
      aria-invalid={!!props.error}
      aria-describedby={describedBy(props.id, { error: props.error, hint: props.hint })}
    />
  </Field>
);
