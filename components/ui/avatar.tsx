'use client';

import { useState } from 'react';
import { cn } from './cn';

const SIZES = {
  sm: 'size-8 text-xs',
  md: 'size-10 text-sm',
  lg: 'size-16 text-xl',
  xl: 'size-24 text-3xl',
} as const;

const PALETTE = ['#8b93ff', '#3ddc97', '#f5b94a', '#ff6b6b', '#5cc8ff', '#d98bff', '#ff9f5c', '#7ee0d0'];

const initialsOf = (name: string) => {
  const words = name.trim().split(/[\s_]+/).filter(Boolean);
  const letters = words.length > 1 ? `${words[0]![0]}${words[1]![0]}` : name.trim().slice(0, 2);
  return letters.toUpperCase() || '?';
};

const colourOf = (name: string) => {
  let h = 0;
  for (const ch of name) h = (h * 31 + ch.charCodeAt(0)) >>> 0;
  return PALETTE[h % PALETTE.length]!;
};

/** The profile image, or initials on a colour derived from the name when there is none (or it fails to load). */
export const Avatar = ({
  src,
  name,
  size = 'md',
  className,
}: {
  src?: string | null;
  name: string;
  size?: keyof typeof SIZES;
  className?: string;
}) => {
  const [failedSrc, setFailedSrc] = useState<string | null>(null);
  const showImage = !!src && failedSrc !== src;
  return (
    <span
      className={cn(
        'relative inline-flex shrink-0 items-center justify-center overflow-hidden rounded-full border border-line bg-elevated font-semibold select-none',
        SIZES[size],
        className,
      )}
    >
      {showImage ? (
        // eslint-disable-next-line @next/next/no-img-element -- user-supplied URLs from any host
        <img src={src} alt="" className="size-full object-cover" onError={() => setFailedSrc(src)} />
      ) : (
        <span aria-hidden="true" className="flex size-full items-center justify-center" style={{ color: colourOf(name), backgroundColor: `${colourOf(name)}1f` }}>
          {initialsOf(name)}
        </span>
      )}
    </span>
  );
};
