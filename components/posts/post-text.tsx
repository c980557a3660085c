import Link from 'next/link';
import { cn } from '@/components/ui/cn';
import { splitRichText } from '@/lib/posts/text';
import { profileHref } from '@/lib/users/links';

// Underlined (not by colour alone: links inside running text must stand out without it, WCAG 1.4.1).
const linkClass = 'font-medium text-accent underline decoration-accent/50 underline-offset-2 hover:decoration-accent focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-accent/50 rounded-sm';

const hrefOf = (kind: 'tag' | 'mention' | 'ticker', value: string) =>
  kind === 'tag' ? `/tags/${encodeURIComponent(value.toLowerCase())}` : kind === 'mention' ? profileHref({ username: value }) : `/perps/${encodeURIComponent(value)}`;

/**
 * A post's text: #tags to their tag page, @mentions to the profile, and `$TICKER`s to the perp page
 * when the server named them as real tickers (`post.tickers`). Every piece is a React text node
 * (splitRichText never interprets markup), so nothing in a post can inject HTML.
 */
export const PostText = ({ text, tickers, className }: { text: string; tickers: readonly string[]; className?: string }) => (
  <p className={cn('text-sm leading-relaxed break-words whitespace-pre-wrap text-ink', className)}>
    {splitRichText(text, { tickers }).map((s, i) =>
      s.kind === 'text' ? (
        s.text
      ) : (
        <Link
          key={i}
          href={hrefOf(s.kind, s.value)}
          className={linkClass}
          {...(s.kind === 'ticker' ? { 'aria-label': `${s.text} perpetual`, 'data-ticker': s.value } : {})}
        >
          {s.text}
        </Link>
      ),
    )}
  </p>
);
