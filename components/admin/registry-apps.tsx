'use client';

import Link from 'next/link';
import { useState, type FormEvent } from 'react';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardDescription, CardTitle } from '@/components/ui/card';
import { EmptyState } from '@/components/ui/empty-state';
import { ErrorState, Notice } from '@/components/ui/error-state';
import { Field, describedBy } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { RelativeTime } from '@/components/ui/relative-time';
import { Skeleton } from '@/components/ui/skeleton';
import { isForbidden, parseCapabilities, useDeleteApp, useRegisterApp, useRegistryApps, type TRegistryApp } from '@/lib/client/queries/admin';
import { describeError, getFieldErrors, hasErrorCode } from '@/lib/client/queries/errors';
import { profileHref } from '@/lib/users/links';
import { NotAllowed } from './admin-console';

const isHttpUrl = (s: string) => {
  try {
    const u = new URL(s);
    return u.protocol === 'http:' || u.protocol === 'https:';
  } catch {
    return false;
  }
};

/** Register a third-party app: name, URL, owner (username or id), what it does. */
const RegisterAppForm = () => {
  const register = useRegisterApp();
  const [name, setName] = useState('');
  const [url, setUrl] = useState('');
  const [owner, setOwner] = useState('');
  const [description, setDescription] = useState('');
  const [capabilities, setCapabilities] = useState('');
  const [isTouched, setIsTouched] = useState(false);

  const server = register.isError ? getFieldErrors(register.error) : {};
  const nameError = (isTouched && !name.trim() ? 'Give the app a name.' : undefined) ?? server.name;
  const urlError = (isTouched && !isHttpUrl(url.trim()) ? 'Enter the app’s address, starting with https://.' : undefined) ?? server.url;
  const ownerError =
    (isTouched && !owner.trim() ? 'Enter the owner’s username.' : undefined) ??
    (hasErrorCode(register.error, 'USER_NOT_FOUND') ? 'No account has this username or id.' : server.ownerId);
  const otherError = register.isError && !nameError && !urlError && !ownerError ? describeError(register.error) : undefined;

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    setIsTouched(true);
    if (!name.trim() || !isHttpUrl(url.trim()) || !owner.trim()) return;
    register.mutate(
      {
        name: name.trim(),
        url: url.trim(),
        ownerId: owner.trim().replace(/^@/, ''),
        ...(description.trim() ? { description: description.trim() } : {}),
        capabilities: parseCapabilities(capabilities),
      },
      {
        onSuccess: () => {
          setName('');
          setUrl('');
          setOwner('');
          setDescription('');
          setCapabilities('');
          setIsTouched(false);
        },
      },
    );
  };
  const edit = <T,>(set: (v: T) => void) => (v: T) => {
    set(v);
    if (!register.isIdle) register.reset();
  };

  return (
    <Card aria-labelledby="register-app-title" className="flex flex-col gap-5">
      <div>
        <CardTitle id="register-app-title">Register an app</CardTitle>
        <CardDescription>Third-party clients appear in the public registry with their owner and what they can do.</CardDescription>
      </div>
      <form onSubmit={onSubmit} noValidate aria-label="Register an app" className="grid gap-4 sm:grid-cols-2">
        <Field id="app-name" label="Name" error={nameError}>
          <Input id="app-name" maxLength={80} value={name} onChange={(e) => edit(setName)(e.target.value)} aria-invalid={!!nameError} aria-describedby={describedBy('app-name', { error: nameError })} />
        </Field>
        <Field id="app-url" label="URL" error={urlError}>
          <Input id="app-url" type="url" inputMode="url" placeholder="https://" value={url} onChange={(e) => edit(setUrl)(e.target.value)} aria-invalid={!!urlError} aria-describedby={describedBy('app-url', { error: urlError })} />
        </Field>
        <Field id="app-owner" label="Owner (username)" error={ownerError}>
          <Input id="app-owner" autoCapitalize="none" spellCheck={false} value={owner} onChange={(e) => edit(setOwner)(e.target.value)} aria-invalid={!!ownerError} aria-describedby={describedBy('app-owner', { error: ownerError })} />
        </Field>
        <Field id="app-capabilities" label="Capabilities (optional)" hint="Comma-separated, e.g. read, alerts" error={server.capabilities}>
          <Input id="app-capabilities" spellCheck={false} value={capabilities} onChange={(e) => edit(setCapabilities)(e.target.value)} aria-describedby={describedBy('app-capabilities', { hint: 'Comma-separated, e.g. read, alerts', error: server.capabilities })} />
        </Field>
        <div className="sm:col-span-2">
          <Field id="app-description" label="Description (optional)" counter={{ value: description.length, max: 500 }} error={server.description}>
            <Input id="app-description" maxLength={500} value={description} onChange={(e) => edit(setDescription)(e.target.value)} aria-describedby={describedBy('app-description', { counter: true, error: server.description })} />
          </Field>
        </div>
        {otherError && (
          <div className="sm:col-span-2">
            <Notice tone="error">{otherError}</Notice>
          </div>
        )}
        {register.isSuccess && (
          <p role="status" className="text-sm text-up sm:col-span-2">
            {register.data.entry.name} is in the registry.
          </p>
        )}
        <Button type="submit" isLoading={register.isPending} className="self-start">
          Register app
        </Button>
      </form>
    </Card>
  );
};

const AppRow = ({ app }: { app: TRegistryApp }) => {
  const remove = useDeleteApp();
  const [isConfirming, setIsConfirming] = useState(false);
  return (
    <li className="flex flex-col gap-2 border-b border-line py-3 last:border-b-0 sm:flex-row sm:items-center sm:justify-between">
      <div className="min-w-0">
        <p className="font-medium text-ink">
          {app.name}{' '}
          <a href={app.url} className="text-sm font-normal text-accent underline-offset-2 hover:underline" rel="noopener noreferrer" target="_blank">
            {app.url}
          </a>
        </p>
        <p className="text-sm text-ink-muted">
          Owner{' '}
          {app.owner ? (
            <Link href={profileHref(app.owner)} className="hover:underline">
              @{app.owner.username}
            </Link>
          ) : (
            'unknown'
          )}{' '}
          · registered <RelativeTime iso={app.createdAt} />
        </p>
        {app.capabilities.length > 0 && (
          <p className="mt-1 flex flex-wrap gap-1">
            {app.capabilities.map((c) => (
              <Badge key={c}>{c}</Badge>
            ))}
          </p>
        )}
        {remove.isError && <Notice tone="error">{describeError(remove.error)}</Notice>}
      </div>
      {isConfirming ? (
        <div role="group" aria-label={`Remove ${app.name}?`} className="flex gap-2">
          <Button variant="danger" size="sm" isLoading={remove.isPending} onClick={() => remove.mutate(app.id)}>
            Remove {app.name}
          </Button>
          <Button variant="secondary" size="sm" onClick={() => setIsConfirming(false)}>
            Keep
          </Button>
        </div>
      ) : (
        <Button variant="secondary" size="sm" onClick={() => setIsConfirming(true)} aria-label={`Remove ${app.name} from the registry`}>
          Remove
        </Button>
      )}
    </li>
  );
};

/** The admin console's Apps section: register third-party apps and remove them. */
export const RegistryApps = () => {
  const apps = useRegistryApps();
  if (apps.isError && isForbidden(apps.error)) return <NotAllowed description="Only administrators manage the registry's apps." />;
  return (
    <div className="flex flex-col gap-6">
      <RegisterAppForm />
      <Card aria-labelledby="apps-title" className="flex flex-col gap-3">
        <CardTitle id="apps-title">Registered apps</CardTitle>
        {apps.isPending ? (
          <div role="status" aria-label="Loading the apps" className="flex flex-col gap-2">
            <Skeleton className="h-12 w-full" />
            <Skeleton className="h-12 w-full" />
          </div>
        ) : apps.isError ? (
          <ErrorState message={describeError(apps.error)} onRetry={() => apps.refetch()} isRetrying={apps.isFetching} />
        ) : apps.data.entries.length === 0 ? (
          <EmptyState title="No apps yet" description="Apps you register are listed here and in the public registry." />
        ) : (
          <ul aria-label="Registered apps">
            {apps.data.entries.map((a) => (
              <AppRow key={a.id} app={a} />
            ))}
          </ul>
        )}
      </Card>
    </div>
  );
};
