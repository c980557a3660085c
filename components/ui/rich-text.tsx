import Link from 'next/link';
import type { ReactNode } from 'react';
import { MENTION_PATTERN, TAG_PATTERN } from '@/lib/posts/text';
import { profileHref } from '@/lib/users/links';

// The server's own patterns (lib/posts/text), so what is linked here is what the server indexed
// as a tag or notified as a mention.

type TSpan = { start: number; end: number; kind: 'tag' | 'mention'; value: string };

const spansOf = (text: string): TSpan[] => {
  const spans: TSpan[] = [];
  for (const m of text.matchAll(TAG_PATTERN)) {
    const start = m.index + m[1]!.length;
    spans.push({ start, end: start + 1 + m[2]!.length, kind: 'tag', value: m[2]! });
  }
  for (const m of text.matchAll(MENTION_PATTERN)) {
    const start = m.index + m[1]!.length;
    spans.push({ start, end: start + 1 + m[2]!.length, kind: 'mention', value: m[2]! });
  }
  spans.sort((a, b) => a.start - b.start);
  const out: TSpan[] = [];
  for (const s of spans) if (!out.length || s.start >= out.at(-1)!.end) out.push(s);
  return out;
};

const linkClass = 'font-medium text-accent hover:underline underline-offset-2';

/** Post or comment text with #tags linked to their tag page and @mentions to the profile. */
export const RichText = ({ text, className }: { text: string; className?: string }) => {
  const parts: ReactNode[] = [];
  let at = 0;
  for (const s of spansOf(text)) {
    if (s.start > at) parts.push(text.slice(at, s.start));
    const shown = text.slice(s.start, s.end);
    parts.push(
      s.kind === 'tag' ? (
        <Link key={s.start} href={`/tags/${encodeURIComponent(s.value.toLowerCase())}`} className={linkClass}>
          {shown}
        </Link>
      ) : (
        <Link key={s.start} href={profileHref({ username: s.value })} className={linkClass}>
          {shown}
        </Link>
      ),
    );
    at = s.end;
  }
  if (at < text.length) parts.push(text.slice(at));
  return <p className={className ?? 'text-sm leading-relaxed break-words whitespace-pre-wrap text-ink'}>{parts}</p>;
};
