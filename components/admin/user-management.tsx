'use client';

import Link from 'next/link';
import { useId, useState } from 'react';
import { Modal } from '@/components/moderation/modal';
import { Pager } from '@/components/moderation/pager';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { DataTable, type TDataColumn } from '@/components/ui/data-table';
import { EmptyState } from '@/components/ui/empty-state';
import { ErrorState, Notice } from '@/components/ui/error-state';
import { describedBy, Field, Label } from '@/components/ui/field';
import { formatCount, formatDate, formatMoney, formatSignedMoney } from '@/components/ui/format';
import { SearchIcon, UserIcon } from '@/components/ui/icons';
import { Input } from '@/components/ui/input';
import { signedAmountClass } from '@/components/ui/pnl';
import { Select } from '@/components/ui/select';
import { Textarea } from '@/components/ui/textarea';
import { UserIdentity } from '@/components/ui/user-identity';
import {
  ADMIN_ERROR_MESSAGES,
  BAN_REASON_MAX,
  DEFAULT_USER_FILTERS,
  isForbidden,
  useAdminUsers,
  useBanUser,
  useSetRole,
  type TAdminUser,
  type TUserFilter,
  type TUserFilters,
  type TUserRole,
  type TUserSort,
} from '@/lib/client/queries/admin';
import { describeError } from '@/lib/client/queries/errors';
import { useDebouncedValue, useMe } from '@/lib/client/queries/users';
import { profileHref } from '@/lib/users/links';
import { NotAllowed } from './admin-console';
import { ROLE_LABEL } from './format';

const FILTERS: readonly { value: TUserFilter; label: string }[] = [
  { value: 'all', label: 'Everyone' },
  { value: 'players', label: 'Players' },
  { value: 'actors', label: 'NPC actors' },
  { value: 'agents', label: 'Agents' },
  { value: 'banned', label: 'Banned' },
  { value: 'staff', label: 'Staff' },
  { value: 'reported', label: 'Reported' },
];

const SORTS: readonly { value: `${TUserSort}:${'asc' | 'desc'}`; label: string }[] = [
  { value: 'created:desc', label: 'Newest' },
  { value: 'created:asc', label: 'Oldest' },
  { value: 'reports:desc', label: 'Most reported' },
  { value: 'balance:desc', label: 'Highest balance' },
  { value: 'pnl:desc', label: 'Best PnL' },
  { value: 'pnl:asc', label: 'Worst PnL' },
  { value: 'trades:desc', label: 'Most trades' },
  { value: 'username:asc', label: 'Username A–Z' },
];

const ROLES: readonly TUserRole[] = ['user', 'moderator', 'admin'];

type TBanTarget = { user: TAdminUser; isBanning: boolean };

const BanDialog = ({ target, onClose, onDone }: { target: TBanTarget; onClose: () => void; onDone: (message: string) => void }) => {
  const id = useId();
  const ban = useBanUser();
  const [reason, setReason] = useState('');
  const handle = `@${target.user.username}`;
  const tooLong = reason.trim().length > BAN_REASON_MAX;
  const reasonId = `${id}-reason`;
  const error = tooLong ? `Keep it under ${BAN_REASON_MAX} characters.` : undefined;
  return (
    <Modal
      title={target.isBanning ? `Ban ${handle}?` : `Unban ${handle}?`}
      description={
        target.isBanning
          ? 'They can still sign in and read, but every post, comment, trade and change is refused, and their content leaves public feeds.'
          : 'They can post and trade again, and their content returns to feeds.'
      }
      onClose={onClose}
    >
      <form
        noValidate
        className="flex flex-col gap-4"
        onSubmit={(e) => {
          e.preventDefault();
          if (tooLong) return;
          ban.mutate(
            { userId: target.user.id, ban: target.isBanning, reason },
            { onSuccess: (res) => onDone(res.user.isBanned ? `${handle} is banned.` : `${handle} is no longer banned.`) },
          );
        }}
      >
        <Field id={reasonId} label="Reason (optional)" hint="Kept in the ban history." error={error} counter={{ value: reason.trim().length, max: BAN_REASON_MAX }}>
          <Textarea
            id={reasonId}
            value={reason}
            rows={3}
            onChange={(e) => setReason(e.target.value)}
            aria-invalid={!!error || undefined}
            aria-describedby={describedBy(reasonId, { error, hint: true, counter: true })}
          />
        </Field>
        {ban.isError && <Notice tone="error">{describeError(ban.error, ADMIN_ERROR_MESSAGES)}</Notice>}
        <div className="flex flex-wrap justify-end gap-2">
          <Button variant="ghost" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" variant={target.isBanning ? 'danger' : 'primary'} isLoading={ban.isPending}>
            {target.isBanning ? `Ban ${handle}` : `Unban ${handle}`}
          </Button>
        </div>
      </form>
    </Modal>
  );
};

const RoleSelect = ({ user, isSelf, onResult }: { user: TAdminUser; isSelf: boolean; onResult: (tone: 'success' | 'error', text: string) => void }) => {
  const setRole = useSetRole();
  const id = useId();
  if (user.isActor) return <span className="text-xs text-ink-faint">NPC</span>;
  return (
    <span className="inline-flex items-center">
      <label htmlFor={id} className="sr-only">
        Role of @{user.username}
      </label>
      <Select
        id={id}
        value={user.role}
        disabled={isSelf || setRole.isPending}
        title={isSelf ? 'You cannot change your own role' : undefined}
        className="h-8 w-auto min-w-[9.5rem] shrink-0 text-xs"
        onChange={(e) => {
          const role = e.target.value as TUserRole;
          setRole.mutate(
            { userId: user.id, role },
            {
              onSuccess: (res) => onResult('success', `@${res.user.username} is now ${ROLE_LABEL[res.user.role].toLowerCase()}.`),
              onError: (err) => onResult('error', describeError(err, ADMIN_ERROR_MESSAGES)),
            },
          );
        }}
      >
        {ROLES.map((r) => (
          <option key={r} value={r}>
            {ROLE_LABEL[r]}
          </option>
        ))}
      </Select>
    </span>
  );
};

/**
 * User management (administrators): search by name, filter (players, NPCs, agents, banned, staff,
 * reported), sort; each user with balance, PnL, trades, reports, role (a select) and ban state
 * (Ban or Unban, with a reason, in a dialog).
 */
export const UserManagement = () => {
  const me = useMe();
  const [search, setSearch] = useState('');
  const term = useDebouncedValue(search.trim(), 300);
  // The page belongs to the search it was turned for: a new search starts on the first page.
  const [state, setState] = useState<{ filters: Omit<TUserFilters, 'search'>; offset: number; term: string }>({ filters: DEFAULT_USER_FILTERS, offset: 0, term: '' });
  const filters: TUserFilters = { ...state.filters, ...(term ? { search: term } : {}) };
  const offset = state.term === term ? state.offset : 0;
  const query = useAdminUsers(filters, offset);
  const [banTarget, setBanTarget] = useState<TBanTarget | null>(null);
  const [message, setMessage] = useState<{ tone: 'success' | 'error'; text: string } | null>(null);

  const setFilters = (next: Partial<TUserFilters>) => setState((s) => ({ filters: { ...s.filters, ...next }, offset: 0, term }));
  const onResult = (tone: 'success' | 'error', text: string) => setMessage({ tone, text });

  const columns: TDataColumn<TAdminUser>[] = [
    {
      id: 'user',
      header: 'User',
      cell: (u) => (
        <Link href={profileHref(u)} className="flex min-w-0 items-center gap-3 hover:underline">
          <UserIdentity user={u} />
        </Link>
      ),
    },
    { id: 'role', header: 'Role', cell: (u) => <RoleSelect user={u} isSelf={u.id === me.data?.id} onResult={onResult} /> },
    { id: 'balance', header: 'Balance', align: 'right', cell: (u) => formatMoney(u.balance), cellClassName: 'tabular-nums' },
    { id: 'pnl', header: 'PnL', align: 'right', cell: (u) => formatSignedMoney(u.lifetimePnL), cellClassName: (u) => `tabular-nums ${signedAmountClass(u.lifetimePnL)}` },
    { id: 'trades', header: 'Trades', align: 'right', cell: (u) => formatCount(u.tradeCount), cellClassName: 'tabular-nums' },
    {
      id: 'reports',
      header: 'Reports',
      align: 'right',
      cell: (u) => (
        <span className="tabular-nums" title={`${u.openReportCount} open of ${u.reportCount}`}>
          {u.openReportCount > 0 ? <span className="font-semibold text-warn">{formatCount(u.openReportCount)}</span> : '0'}
          <span className="text-ink-faint"> / {formatCount(u.reportCount)}</span>
        </span>
      ),
    },
    { id: 'joined', header: 'Joined', cell: (u) => formatDate(u.createdAt), cellClassName: 'whitespace-nowrap text-ink-muted' },
    { id: 'state', header: <span className="sr-only">Ban state and action</span>, align: 'right', cell: (u) => <BanCell user={u} isSelf={u.id === me.data?.id} onBan={setBanTarget} /> },
  ];

  const users = query.data?.users ?? [];
  return (
    <section aria-labelledby="users-title" className="flex flex-col gap-4">
      <h2 id="users-title" className="text-lg font-semibold tracking-tight text-ink">
        Users
      </h2>
      <div role="search" className="grid gap-3 sm:grid-cols-[minmax(0,2fr)_minmax(11rem,1fr)_minmax(11rem,1fr)]">
        <div className="flex flex-col gap-1">
          <Label htmlFor="users-search" className="text-xs text-ink-muted">
            Search
          </Label>
          <div className="relative">
            <SearchIcon className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-ink-faint" />
            <Input id="users-search" type="search" value={search} placeholder="Username or display name" onChange={(e) => setSearch(e.target.value)} className="pl-9" />
          </div>
        </div>
        <div className="flex flex-col gap-1">
          <Label htmlFor="users-filter" className="text-xs text-ink-muted">
            Show
          </Label>
          <Select id="users-filter" value={state.filters.filter} onChange={(e) => setFilters({ filter: e.target.value as TUserFilter })}>
            {FILTERS.map((f) => (
              <option key={f.value} value={f.value}>
                {f.label}
              </option>
            ))}
          </Select>
        </div>
        <div className="flex flex-col gap-1">
          <Label htmlFor="users-sort" className="text-xs text-ink-muted">
            Sort
          </Label>
          <Select
            id="users-sort"
            value={`${state.filters.sortBy}:${state.filters.sortOrder}`}
            onChange={(e) => {
              const [sortBy, sortOrder] = e.target.value.split(':') as [TUserSort, 'asc' | 'desc'];
              setFilters({ sortBy, sortOrder });
            }}
          >
            {SORTS.map((s) => (
              <option key={s.value} value={s.value}>
                {s.label}
              </option>
            ))}
          </Select>
        </div>
      </div>
      {message && <Notice tone={message.tone}>{message.text}</Notice>}
      {query.isError && !query.data ? (
        isForbidden(query.error) ? (
          <NotAllowed title="Administrators only" description="Only administrators manage users." />
        ) : (
          <ErrorState message={describeError(query.error)} onRetry={() => query.refetch()} isRetrying={query.isFetching} />
        )
      ) : (
        <Card isPadded={false} className="overflow-hidden pt-4" aria-busy={query.isPlaceholderData || undefined}>
          <DataTable
            rows={users}
            columns={columns}
            rowKey={(u) => u.id}
            caption="Users"
            isLoading={query.isPending}
            loadingLabel="Loading users"
            empty={<EmptyState className="m-4" icon={<UserIcon />} title="No users match" description={term ? `Nobody matches “${term}”.` : 'Try another filter.'} />}
            listClassName="flex flex-col divide-y divide-line"
            itemClassName="flex flex-col gap-2 px-4 py-3"
            renderItem={(u) => (
              <>
                <div className="flex items-center gap-3">
                  <Link href={profileHref(u)} className="flex min-w-0 flex-1 items-center gap-3">
                    <UserIdentity user={u} />
                  </Link>
                  <BanCell user={u} isSelf={u.id === me.data?.id} onBan={setBanTarget} />
                </div>
                <dl className="grid grid-cols-3 gap-2 text-xs">
                  <div>
                    <dt className="text-ink-faint">Balance</dt>
                    <dd className="text-ink tabular-nums">{formatMoney(u.balance)}</dd>
                  </div>
                  <div>
                    <dt className="text-ink-faint">PnL</dt>
                    <dd className={`tabular-nums ${signedAmountClass(u.lifetimePnL)}`}>{formatSignedMoney(u.lifetimePnL)}</dd>
                  </div>
                  <div>
                    <dt className="text-ink-faint">Reports open / all</dt>
                    <dd className="text-ink tabular-nums">
                      {formatCount(u.openReportCount)} / {formatCount(u.reportCount)}
                    </dd>
                  </div>
                </dl>
                <RoleSelect user={u} isSelf={u.id === me.data?.id} onResult={onResult} />
              </>
            )}
          />
        </Card>
      )}
      {query.data && (
        <Pager
          label="User pages"
          pagination={query.data.pagination}
          shown={users.length}
          onChange={(next) => setState((s) => ({ ...s, offset: next, term }))}
          isBusy={query.isPlaceholderData}
        />
      )}
      {banTarget && (
        <BanDialog
          target={banTarget}
          onClose={() => setBanTarget(null)}
          onDone={(text) => {
            setBanTarget(null);
            setMessage({ tone: 'success', text });
          }}
        />
      )}
    </section>
  );
};

const BanCell = ({ user, isSelf, onBan }: { user: TAdminUser; isSelf: boolean; onBan: (t: TBanTarget) => void }) => (
  <span className="inline-flex items-center gap-2">
    {user.isBanned && <Badge tone="down">Banned</Badge>}
    {!isSelf && (
      <Button
        size="sm"
        variant={user.isBanned ? 'secondary' : 'danger'}
        onClick={() => onBan({ user, isBanning: !user.isBanned })}
        aria-label={`${user.isBanned ? 'Unban' : 'Ban'} @${user.username}`}
      >
        {user.isBanned ? 'Unban' : 'Ban'}
      </Button>
    )}
  </span>
);
