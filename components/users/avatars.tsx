'use client';

import { cn } from '@/components/ui/cn';

/** The built-in avatars a player can pick without uploading (public/avatars). */
export const BUILT_IN_AVATARS = Array.from({ length: 8 }, (_, i) => `/avatars/${i + 1}.svg`);

/** The row of built-in avatars as toggle buttons: the profile editor and the onboarding wizard. */
export const BuiltInAvatarGrid = ({ value, onPick }: { value: string; onPick: (src: string) => void }) => (
  <div className="mt-2 flex flex-wrap gap-2">
    {BUILT_IN_AVATARS.map((src, i) => {
      const isSelected = value.trim() === src;
      return (
        <button
          key={src}
          type="button"
          aria-pressed={isSelected}
          aria-label={`Avatar ${i + 1}`}
          onClick={() => onPick(src)}
          className={cn('rounded-full border-2 p-0.5 transition-colors', isSelected ? 'border-accent' : 'border-transparent hover:border-line-strong')}
        >
          {/* eslint-disable-next-line @next/next/no-img-element -- tiny static SVGs */}
          <img src={src} alt="" width={40} height={40} className="size-10 rounded-full" />
        </button>
      );
    })}
  </div>
);
