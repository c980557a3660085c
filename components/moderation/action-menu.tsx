'use client';

import { useEffect, useId, useRef, useState, type CSSProperties, type KeyboardEvent, type ReactNode, type RefObject } from 'react';
import { cn } from '@/components/ui/cn';

export type TMenuItem = {
  id: string;
  label: string;
  onSelect: () => void;
  isDisabled?: boolean;
  tone?: 'default' | 'danger';
};

const MoreIcon = ({ className }: { className?: string }) => (
  <svg viewBox="0 0 24 24" className={cn('size-5', className)} fill="currentColor" aria-hidden="true">
    <circle cx="5" cy="12" r="1.8" />
    <circle cx="12" cy="12" r="1.8" />
    <circle cx="19" cy="12" r="1.8" />
  </svg>
);

/**
 * A "more" button that opens a menu (the WAI-ARIA menu button pattern): Enter, Space or the down
 * arrow open it on the first item, the up arrow on the last; arrows, Home and End move between
 * items; Escape closes it and gives focus back to the button; Tab or a click outside closes it.
 * `buttonRef` lets the owner give focus back to the button after a dialog an item opened.
 */
export const ActionMenu = ({
  label,
  items,
  onOpen,
  buttonRef,
  footer,
  className,
}: {
  /** The button's accessible name ("More actions for @alice"). */
  label: string;
  items: readonly TMenuItem[];
  /** Called as the menu opens (load what the items need). */
  onOpen?: () => void;
  buttonRef?: RefObject<HTMLButtonElement | null>;
  /** Shown under the items (a loading or error line). */
  footer?: ReactNode;
  className?: string;
}) => {
  const menuId = useId();
  const ownButtonRef = useRef<HTMLButtonElement>(null);
  const button = buttonRef ?? ownButtonRef;
  const rootRef = useRef<HTMLDivElement>(null);
  const itemRefs = useRef<Array<HTMLButtonElement | null>>([]);
  const [isOpen, setIsOpen] = useState(false);
  const [active, setActive] = useState(0);
  const [place, setPlace] = useState<CSSProperties>({});

  // The menu is placed against the viewport (fixed), so a card that clips its overflow (the
  // profile header) cannot cut it off; it opens upwards when there is no room below.
  const placeMenu = () => {
    const rect = button.current?.getBoundingClientRect();
    if (!rect) return;
    const height = items.length * 40 + (footer ? 40 : 8) + 8;
    const right = Math.max(8, window.innerWidth - rect.right);
    setPlace(rect.bottom + 4 + height > window.innerHeight && rect.top > height ? { right, bottom: window.innerHeight - rect.top + 4 } : { right, top: rect.bottom + 4 });
  };

  const open = (at: 'first' | 'last') => {
    onOpen?.();
    placeMenu();
    setIsOpen(true);
    setActive(at === 'first' ? 0 : Math.max(0, items.length - 1));
  };
  const close = ({ isReturningFocus }: { isReturningFocus: boolean }) => {
    setIsOpen(false);
    if (isReturningFocus) button.current?.focus();
  };

  // Focus follows the active item while open.
  useEffect(() => {
    if (isOpen) itemRefs.current[active]?.focus();
  }, [isOpen, active]);

  // A pointer press outside closes the menu without stealing focus back; scrolling or resizing
  // moves it with its button (it is placed against the viewport).
  const placeRef = useRef(placeMenu);
  useEffect(() => {
    placeRef.current = placeMenu;
  });
  useEffect(() => {
    if (!isOpen) return;
    const onPointerDown = (e: PointerEvent) => {
      if (!rootRef.current?.contains(e.target as Node)) setIsOpen(false);
    };
    const onMove = () => placeRef.current();
    document.addEventListener('pointerdown', onPointerDown);
    window.addEventListener('resize', onMove);
    window.addEventListener('scroll', onMove, { passive: true, capture: true });
    return () => {
      document.removeEventListener('pointerdown', onPointerDown);
      window.removeEventListener('resize', onMove);
      window.removeEventListener('scroll', onMove, { capture: true });
    };
  }, [isOpen]);

  // Disabled items stay reachable (they say why they cannot be chosen), as the menu pattern advises.
  const move = (step: 1 | -1) => setActive((at) => (at + step + items.length) % items.length);

  const onButtonKeyDown = (e: KeyboardEvent) => {
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      open(e.key === 'ArrowDown' ? 'first' : 'last');
    }
  };

  const onMenuKeyDown = (e: KeyboardEvent) => {
    switch (e.key) {
      case 'ArrowDown':
        e.preventDefault();
        return move(1);
      case 'ArrowUp':
        e.preventDefault();
        return move(-1);
      case 'Home':
        e.preventDefault();
        return setActive(0);
      case 'End':
        e.preventDefault();
        return setActive(Math.max(0, items.length - 1));
      case 'Escape':
        e.preventDefault();
        e.stopPropagation();
        return close({ isReturningFocus: true });
      case 'Tab':
        return close({ isReturningFocus: false });
    }
  };

  const select = (item: TMenuItem) => {
    if (item.isDisabled) return;
    // Focus goes back to the button first, so a dialog the item opens returns it there when it closes.
    close({ isReturningFocus: true });
    item.onSelect();
  };

  return (
    <div ref={rootRef} className={cn('relative', className)}>
      <button
        ref={button}
        type="button"
        aria-label={label}
        aria-haspopup="menu"
        aria-expanded={isOpen}
        aria-controls={isOpen ? menuId : undefined}
        onClick={() => (isOpen ? close({ isReturningFocus: false }) : open('first'))}
        onKeyDown={onButtonKeyDown}
        className="inline-flex size-9 items-center justify-center rounded-lg text-ink-muted transition-colors hover:bg-elevated hover:text-ink focus-visible:ring-2 focus-visible:ring-accent/50 focus-visible:outline-none"
      >
        <MoreIcon />
      </button>
      {isOpen && (
        <div
          id={menuId}
          role="menu"
          aria-label={label}
          onKeyDown={onMenuKeyDown}
          style={place}
          className="fixed z-40 flex max-w-[calc(100vw-1rem)] min-w-52 flex-col rounded-xl border border-line-strong bg-surface p-1 shadow-2xl"
        >
          {items.map((item, i) => (
            <button
              key={item.id}
              ref={(el) => {
                itemRefs.current[i] = el;
              }}
              type="button"
              role="menuitem"
              tabIndex={i === active ? 0 : -1}
              aria-disabled={item.isDisabled || undefined}
              onClick={() => select(item)}
              // Only a pointer that really moves takes the focus: a menu opened from the keyboard under a
              // resting pointer (the browser reports a hover when layout changes under it) keeps its first item.
              onPointerMove={(e) => {
                if (e.pointerType === 'mouse' && (e.movementX !== 0 || e.movementY !== 0) && active !== i) setActive(i);
              }}
              className={cn(
                'flex h-10 items-center rounded-lg px-3 text-left text-sm whitespace-nowrap transition-colors focus-visible:outline-none',
                item.isDisabled ? 'cursor-default text-ink-faint' : item.tone === 'danger' ? 'text-down focus:bg-down-soft' : 'text-ink focus:bg-elevated',
              )}
            >
              {item.label}
            </button>
          ))}
          {footer && <div className="px-3 py-2 text-xs text-ink-muted">{footer}</div>}
        </div>
      )}
    </div>
  );
};
