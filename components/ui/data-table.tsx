'use client';

import { useMemo, useState, type ReactNode } from 'react';
import { cn } from './cn';
import { ArrowDownIcon, ArrowUpIcon, SortIcon } from './icons';
import { Skeleton } from './skeleton';

export type TSortDirection = 'ascending' | 'descending';
export type TSort = { columnId: string; direction: TSortDirection };

export type TDataColumn<T> = {
  id: string;
  header: ReactNode;
  cell: (row: T) => ReactNode;
  /** Numbers read best right-aligned; the header follows its cells. */
  align?: 'left' | 'right';
  /** A width class for the column (`w-24`), applied through a <col> when the table is fixed. */
  width?: string;
  /** Classes of this column's cells besides the padding the table sets (colour, weight, wrapping). */
  cellClassName?: string | ((row: T) => string);
  /** Makes the header a sort button: rows are ordered by this value (numbers, or text in reading order). */
  sortValue?: (row: T) => number | string;
  /** The direction of the first press on this column's header (numbers usually want the largest first). */
  firstDirection?: TSortDirection;
};

export type TDataTableProps<T> = {
  rows: readonly T[];
  columns: readonly TDataColumn<T>[];
  rowKey: (row: T) => string;
  /** What the table lists: its caption for screen readers, and the name of the phone list. */
  caption: string;
  /**
   * Phones get a list instead of the table: each row through this (the contents of its <li>).
   * Without it the table shows at every width (scrolling sideways when it must).
   */
  renderItem?: (row: T) => ReactNode;
  itemClassName?: string;
  listClassName?: string;
  /** Fixed layout: the columns take their `width`, the rest share what is left. */
  isFixed?: boolean;
  /** Placeholder rows under a status named `loadingLabel`, instead of the rows. */
  isLoading?: boolean;
  loadingLabel?: string;
  loadingRows?: number;
  /** Shown instead of the table when there are no rows. */
  empty?: ReactNode;
  initialSort?: TSort;
  className?: string;
};

const compare = (a: number | string, b: number | string) =>
  typeof a === 'number' && typeof b === 'number' ? a - b : String(a).localeCompare(String(b), 'en-US', { numeric: true });

/** Rows in the order of `sort` (a stable sort: equal values keep the order they came in). */
export const sortRows = <T,>(rows: readonly T[], columns: readonly TDataColumn<T>[], sort: TSort | null): readonly T[] => {
  const value = sort ? columns.find((c) => c.id === sort.columnId)?.sortValue : undefined;
  if (!sort || !value) return rows;
  const sign = sort.direction === 'ascending' ? 1 : -1;
  return [...rows].sort((a, b) => sign * compare(value(a), value(b)));
};

/** The padding of a cell at its position: the card's inset (px-5, sm:px-6) at the edges, a gutter between columns. */
const edgePadding = (index: number, count: number) => cn(index === 0 && 'pl-5 sm:pl-6', index === count - 1 ? 'pr-5 sm:pr-6' : 'pr-4');

const SortButton = ({ label, direction, onClick }: { label: ReactNode; direction: TSortDirection | null; onClick: () => void }) => (
  <button
    type="button"
    onClick={onClick}
    className="inline-flex items-center gap-1 rounded font-medium hover:text-ink focus-visible:ring-2 focus-visible:ring-accent/50 focus-visible:outline-none"
  >
    {label}
    {direction === 'ascending' ? (
      <ArrowUpIcon className="size-3.5" />
    ) : direction === 'descending' ? (
      <ArrowDownIcon className="size-3.5" />
    ) : (
      <SortIcon className="size-3.5 opacity-50" />
    )}
  </button>
);

/**
 * A table of rows on wide screens and, when `renderItem` is given, a list on phones. Headers of
 * columns with a `sortValue` are buttons (keyboard reachable) that order the rows, and the sorted
 * column says so with aria-sort. Loading shows placeholder rows under a status; no rows shows
 * `empty`. A primitive: it holds no data of its own, the caller passes rows and cells.
 */
export const DataTable = <T,>({
  rows,
  columns,
  rowKey,
  caption,
  renderItem,
  itemClassName,
  listClassName,
  isFixed = false,
  isLoading = false,
  loadingLabel = 'Loading',
  loadingRows = 5,
  empty,
  initialSort,
  className,
}: TDataTableProps<T>) => {
  const [sort, setSort] = useState<TSort | null>(initialSort ?? null);
  const sorted = useMemo(() => sortRows(rows, columns, sort), [rows, columns, sort]);

  if (isLoading) {
    return (
      <div role="status" aria-label={loadingLabel} className={cn('flex flex-col gap-3 px-5 pb-5 sm:px-6', className)}>
        {Array.from({ length: loadingRows }, (_, i) => (
          <Skeleton key={i} className="h-10 w-full" />
        ))}
      </div>
    );
  }
  if (rows.length === 0 && empty !== undefined) return <>{empty}</>;

  const onSort = (column: TDataColumn<T>) =>
    setSort((current) =>
      current?.columnId === column.id
        ? { columnId: column.id, direction: current.direction === 'ascending' ? 'descending' : 'ascending' }
        : { columnId: column.id, direction: column.firstDirection ?? 'ascending' },
    );

  return (
    <>
      <div className={cn('overflow-x-auto', renderItem && 'hidden md:block', className)}>
        <table className={cn('w-full text-left text-sm', isFixed && 'table-fixed')}>
          <caption className="sr-only">{caption}</caption>
          {isFixed && (
            <colgroup>
              {columns.map((c) => (
                <col key={c.id} className={c.width} />
              ))}
            </colgroup>
          )}
          <thead className="text-xs whitespace-nowrap text-ink-faint">
            <tr>
              {columns.map((c, i) => {
                const direction = sort?.columnId === c.id ? sort.direction : null;
                return (
                  <th
                    key={c.id}
                    scope="col"
                    aria-sort={c.sortValue && direction ? direction : undefined}
                    className={cn('pb-2 font-medium', edgePadding(i, columns.length), c.align === 'right' && 'text-right')}
                  >
                    {c.sortValue ? <SortButton label={c.header} direction={direction} onClick={() => onSort(c)} /> : c.header}
                  </th>
                );
              })}
            </tr>
          </thead>
          <tbody>
            {sorted.map((row) => (
              <tr key={rowKey(row)} className="border-t border-line">
                {columns.map((c, i) => (
                  <td
                    key={c.id}
                    className={cn(
                      'py-3',
                      edgePadding(i, columns.length),
                      c.align === 'right' && 'text-right',
                      typeof c.cellClassName === 'function' ? c.cellClassName(row) : c.cellClassName,
                    )}
                  >
                    {c.cell(row)}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {renderItem && (
        <ul className={cn('md:hidden', listClassName)} aria-label={caption}>
          {sorted.map((row) => (
            <li key={rowKey(row)} className={itemClassName}>
              {renderItem(row)}
            </li>
          ))}
        </ul>
      )}
    </>
  );
};
