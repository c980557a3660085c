'use client';

import { useEffect, useId, useRef, type KeyboardEvent, type ReactNode } from 'react';
import { cn } from '@/components/ui/cn';
import { CloseIcon } from '@/components/ui/icons';

const FOCUSABLE = 'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

/**
 * A modal dialog on the native <dialog> (showModal): the page behind is inert, Escape closes it,
 * it is named by its title and described by `description`. Tab and Shift+Tab wrap inside it, and
 * focus returns to whatever had it before the dialog opened (the button that opened it).
 */
export const Modal = ({
  title,
  description,
  onClose,
  children,
  initialFocusRef,
  returnFocusRef,
  className,
}: {
  title: string;
  description?: ReactNode;
  onClose: () => void;
  children: ReactNode;
  /** What gets focus on opening; the first focusable element otherwise. */
  initialFocusRef?: { current: HTMLElement | null };
  /** What gets focus back on closing (the menu button that opened it); what had it on opening otherwise. */
  returnFocusRef?: { current: HTMLElement | null };
  className?: string;
}) => {
  const id = useId();
  const ref = useRef<HTMLDialogElement>(null);
  const onCloseRef = useRef(onClose);
  useEffect(() => {
    onCloseRef.current = onClose;
  });

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    const opener = returnFocusRef?.current ?? (document.activeElement instanceof HTMLElement ? document.activeElement : null);
    if (!dialog.open) dialog.showModal();
    const first = initialFocusRef?.current ?? dialog.querySelector<HTMLElement>(FOCUSABLE);
    first?.focus();
    // Escape fires "cancel": the owner decides (it unmounts the dialog), the browser does not close it alone.
    const onCancel = (e: Event) => {
      e.preventDefault();
      onCloseRef.current();
    };
    dialog.addEventListener('cancel', onCancel);
    return () => {
      dialog.removeEventListener('cancel', onCancel);
      if (dialog.open) dialog.close();
      // The opener may be gone (a blocked author's post leaves the feed, a menu item closes with its
      // menu); then focus stays where the browser puts it.
      if (opener?.isConnected) opener.focus();
    };
    // Opening happens once per mount; initialFocusRef is read then.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const onKeyDown = (e: KeyboardEvent<HTMLDialogElement>) => {
    if (e.key !== 'Tab') return;
    const focusable = Array.from(ref.current?.querySelectorAll<HTMLElement>(FOCUSABLE) ?? []).filter((el) => el.offsetParent !== null || el === document.activeElement);
    if (focusable.length === 0) return;
    const first = focusable[0]!;
    const last = focusable.at(-1)!;
    if (e.shiftKey && document.activeElement === first) {
      e.preventDefault();
      last.focus();
    } else if (!e.shiftKey && document.activeElement === last) {
      e.preventDefault();
      first.focus();
    }
  };

  return (
    <dialog
      ref={ref}
      aria-labelledby={`${id}-title`}
      aria-describedby={description ? `${id}-description` : undefined}
      onKeyDown={onKeyDown}
      className={cn(
        'm-auto max-h-[90dvh] w-[calc(100%-2rem)] max-w-lg overflow-y-auto rounded-2xl border border-line-strong bg-surface p-0 text-ink shadow-2xl backdrop:bg-black/60',
        className,
      )}
    >
      <div className="flex items-start justify-between gap-4 border-b border-line px-5 py-4">
        <div className="min-w-0">
          <h2 id={`${id}-title`} className="text-base font-semibold tracking-tight text-ink">
            {title}
          </h2>
          {description && (
            <p id={`${id}-description`} className="mt-1 text-sm text-ink-muted">
              {description}
            </p>
          )}
        </div>
        <button
          type="button"
          onClick={onClose}
          aria-label="Close"
          className="-mr-1 inline-flex size-9 shrink-0 items-center justify-center rounded-lg text-ink-muted hover:bg-elevated hover:text-ink focus-visible:ring-2 focus-visible:ring-accent/50 focus-visible:outline-none"
        >
          <CloseIcon className="size-5" />
        </button>
      </div>
      <div className="px-5 py-4">{children}</div>
    </dialog>
  );
};
