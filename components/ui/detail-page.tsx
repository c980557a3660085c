import Link from 'next/link';
import type { ReactNode } from 'react';
import { cn } from './cn';
import { Skeleton } from './skeleton';

/** A page for one thing (a market, a ticker): a link back to the list, its header, then a main column with a sticky side panel. */
export const DetailPage = ({
  backHref,
  backLabel,
  header,
  main,
  aside,
  asideLabel,
  below,
  gridClassName,
}: {
  backHref: string;
  backLabel: string;
  header: ReactNode;
  /** Above the side panel on a phone (the chart). */
  main: ReactNode;
  aside: ReactNode;
  asideLabel: string;
  /** Below the side panel on a phone. */
  below: ReactNode;
  gridClassName?: string;
}) => (
  <div className="flex flex-col gap-6">
    <Link href={backHref} className="inline-flex items-center gap-1 text-sm text-ink-muted hover:text-ink">
      <span aria-hidden="true">←</span> {backLabel}
    </Link>
    {header}
    <div className={cn('grid items-start gap-6 lg:grid-cols-[minmax(0,1fr)_20rem]', gridClassName)}>
      <div className="flex min-w-0 flex-col gap-6 lg:col-start-1">{main}</div>
      <aside aria-label={asideLabel} className="lg:sticky lg:top-6 lg:col-start-2 lg:row-span-2 lg:row-start-1">
        {aside}
      </aside>
      <div className="flex min-w-0 flex-col gap-6 lg:col-start-1">{below}</div>
    </div>
  </div>
);

/** A detail page's header: a line of tags over the title, then the headline figures (`children`). */
export const DetailHeader = ({ tags, title, children }: { tags: ReactNode; title: string; children: ReactNode }) => (
  <header className="flex flex-col gap-5">
    <div className="flex flex-col gap-3">
      <div className="flex flex-wrap items-center gap-2 text-xs text-ink-muted">{tags}</div>
      <h1 className="text-2xl leading-tight font-semibold tracking-tight text-balance text-ink sm:text-3xl">{title}</h1>
    </div>
    <div className="flex flex-wrap items-end gap-x-8 gap-y-4">{children}</div>
  </header>
);

/** One of a detail header's figures, inside its `<dl>`. */
export const DetailStat = ({ label, children }: { label: string; children: ReactNode }) => (
  <div>
    <dt className="text-xs text-ink-muted">{label}</dt>
    <dd className="font-medium text-ink tabular-nums">{children}</dd>
  </div>
);

/** A detail page while it loads, in the page's shape. */
export const DetailSkeleton = ({ label, titleClassName }: { label: string; titleClassName: string }) => (
  <div role="status" aria-label={label} className="flex flex-col gap-6">
    <Skeleton className="h-4 w-24" />
    <Skeleton className={cn('h-8', titleClassName)} />
    <Skeleton className="h-12 w-40" />
    <div className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_20rem]">
      <Skeleton className="h-80 w-full rounded-2xl" />
      <Skeleton className="h-96 w-full rounded-2xl" />
    </div>
  </div>
);
