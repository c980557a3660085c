'use client';

import { useRouter } from 'next/navigation';
import { useId, useRef, useState, type FormEvent } from 'react';
import { Modal } from '@/components/moderation/modal';
import { Button } from '@/components/ui/button';
import { Notice } from '@/components/ui/error-state';
import { Field } from '@/components/ui/field';
import { CheckIcon, CloseIcon, SearchIcon } from '@/components/ui/icons';
import { Input } from '@/components/ui/input';
import { Skeleton } from '@/components/ui/skeleton';
import { UserIdentity } from '@/components/ui/user-identity';
import { CHAT_ERROR_MESSAGES, useCreateGroupChat } from '@/lib/client/queries/chats';
import { GROUP_CHAT_MAX_PARTICIPANTS } from '@/lib/contracts/chats';
import { describeError, getFieldErrors } from '@/lib/client/queries/errors';
import { useUserSearch } from '@/lib/client/queries/users';
import { personName } from './format';

type TPick = { id: string; username: string; displayName: string; profileImageUrl: string | null; isActor?: boolean };

const NAME_MAX = 100;

/**
 * "New group chat": a name (optional: the members' names otherwise) and the people to invite, found
 * by searching players and NPCs and added or removed with a press. Creating it opens the chat; the
 * people are invited and join when they accept.
 */
export const NewGroupChatDialog = ({ myUserId, onClose }: { myUserId: string | undefined; onClose: () => void }) => {
  const id = useId();
  const router = useRouter();
  const nameRef = useRef<HTMLInputElement>(null);
  const searchRef = useRef<HTMLInputElement>(null);
  const [name, setName] = useState('');
  const [q, setQ] = useState('');
  const [picked, setPicked] = useState<TPick[]>([]);
  const [isTried, setIsTried] = useState(false);
  const search = useUserSearch(q);
  const create = useCreateGroupChat();

  const results = (search.data ?? []).filter((u) => u.id !== myUserId);
  const isPicked = (userId: string) => picked.some((p) => p.id === userId);
  const toggle = (u: TPick) => setPicked((list) => (list.some((p) => p.id === u.id) ? list.filter((p) => p.id !== u.id) : [...list, u]));
  const isFull = picked.length >= GROUP_CHAT_MAX_PARTICIPANTS;
  const peopleProblem = isTried && picked.length === 0 ? 'Add at least one person.' : undefined;
  const fieldErrors = getFieldErrors(create.error);

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    setIsTried(true);
    if (picked.length === 0) {
      searchRef.current?.focus();
      return;
    }
    create.mutate(
      { name, participantIds: picked.map((p) => p.id) },
      {
        onSuccess: (chat) => {
          onClose();
          router.push(`/chats/${encodeURIComponent(chat.id)}`);
        },
      },
    );
  };

  const isWaiting = search.isEnabled && (search.isSettling || (search.isFetching && !search.data));
  return (
    <Modal
      title="New group chat"
      description={`Invite up to ${GROUP_CHAT_MAX_PARTICIPANTS} people: each joins when they accept. You can name the chat, or it is named after them.`}
      onClose={onClose}
      initialFocusRef={nameRef}
    >
      <form onSubmit={onSubmit} noValidate aria-label="New group chat" className="flex flex-col gap-5">
        <Field id={`${id}-name`} label="Chat name (optional)" error={fieldErrors.name} counter={name.length > NAME_MAX - 20 ? { value: name.length, max: NAME_MAX } : undefined}>
          <Input ref={nameRef} id={`${id}-name`} value={name} maxLength={NAME_MAX} onChange={(e) => setName(e.target.value)} placeholder="e.g. Macro desk" autoComplete="off" />
        </Field>

        <div className="flex flex-col gap-2">
          <label htmlFor={`${id}-search`} className="text-sm font-medium text-ink">
            Add people
          </label>
          {picked.length > 0 && (
            <ul aria-label="People in the chat" className="flex flex-wrap gap-1.5">
              {picked.map((p) => (
                <li key={p.id}>
                  <button
                    type="button"
                    onClick={() => toggle(p)}
                    aria-label={`Remove @${p.username}`}
                    className="inline-flex items-center gap-1 rounded-full border border-accent/30 bg-accent-soft px-2.5 py-1 text-xs font-medium text-accent hover:bg-accent/20"
                  >
                    {personName(p)}
                    <CloseIcon className="size-3.5" />
                  </button>
                </li>
              ))}
            </ul>
          )}
          <div role="search" className="relative">
            <span aria-hidden="true" className="pointer-events-none absolute inset-y-0 left-3 flex items-center text-ink-faint">
              <SearchIcon className="size-4" />
            </span>
            <Input
              ref={searchRef}
              id={`${id}-search`}
              type="search"
              placeholder="Search by name…"
              autoComplete="off"
              spellCheck={false}
              className="pl-9"
              value={q}
              onChange={(e) => setQ(e.target.value)}
              aria-invalid={!!peopleProblem || undefined}
              aria-describedby={peopleProblem ? `${id}-people-error` : `${id}-people-hint`}
              aria-controls={`${id}-results`}
            />
          </div>
          <div aria-live="polite" className="empty:hidden">
            {peopleProblem ? (
              <p id={`${id}-people-error`} className="text-sm text-down">
                {peopleProblem}
              </p>
            ) : (
              <p id={`${id}-people-hint`} className="text-sm text-ink-muted">
                {picked.length === 0 ? 'Type two letters or more of a name.' : `${picked.length} added${isFull ? ' (the most a chat can have)' : ''}.`}
              </p>
            )}
          </div>
          <div id={`${id}-results`} aria-live="polite">
            {!search.isEnabled ? null : isWaiting ? (
              <div role="status" aria-label="Searching" className="flex flex-col gap-2">
                {[0, 1].map((i) => (
                  <div key={i} className="flex items-center gap-3 p-2">
                    <Skeleton className="size-10 rounded-full" />
                    <Skeleton className="h-3.5 w-32" />
                  </div>
                ))}
              </div>
            ) : search.isError ? (
              <Notice tone="error">{describeError(search.error)}</Notice>
            ) : results.length === 0 ? (
              <p className="px-2 py-2 text-sm text-ink-muted">No one matches “{search.term}”.</p>
            ) : (
              <ul aria-label="People found" className="flex max-h-60 flex-col gap-1 overflow-y-auto">
                {results.map((u) => {
                  const isIn = isPicked(u.id);
                  return (
                    <li key={u.id}>
                      <button
                        type="button"
                        aria-pressed={isIn}
                        aria-label={`${isIn ? 'Remove' : 'Add'} @${u.username}`}
                        disabled={!isIn && isFull}
                        onClick={() => toggle(u)}
                        className="flex w-full items-center gap-3 rounded-xl p-2 text-left transition-colors hover:bg-elevated disabled:opacity-50"
                      >
                        <UserIdentity user={u} className="flex-1" />
                        <span
                          aria-hidden="true"
                          className={
                            isIn
                              ? 'flex size-6 items-center justify-center rounded-full bg-accent text-canvas'
                              : 'flex size-6 items-center justify-center rounded-full border border-line-strong text-ink-faint'
                          }
                        >
                          {isIn ? <CheckIcon className="size-4" /> : '+'}
                        </span>
                      </button>
                    </li>
                  );
                })}
              </ul>
            )}
          </div>
        </div>

        {create.isError && !fieldErrors.name && <Notice tone="error">{describeError(create.error, CHAT_ERROR_MESSAGES)}</Notice>}
        <div className="flex flex-wrap justify-end gap-2">
          <Button variant="ghost" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" isLoading={create.isPending}>
            Create chat
          </Button>
        </div>
      </form>
    </Modal>
  );
};
