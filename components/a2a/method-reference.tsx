'use client';

import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { DataTable, type TDataColumn } from '@/components/ui/data-table';
import {
  PROTOCOL_EXAMPLES,
  exampleParams,
  groupMethods,
  listParamFields,
  type TA2aMethod,
  type TA2aProtocolMethod,
  type TParamField,
} from '@/lib/client/queries/a2a';
import { CodeBlock, toJson } from './code-block';

type TRow = TParamField & { path: string };

/** Nested fields as rows of their own, named by path (`filters.minReputation`). */
const flattenFields = (fields: readonly TParamField[], prefix = ''): TRow[] =>
  fields.flatMap((f) => {
    const path = prefix ? `${prefix}.${f.name}` : f.name;
    return [{ ...f, path }, ...flattenFields(f.children, path)];
  });

const RequiredBadge = ({ isRequired }: { isRequired: boolean }) =>
  isRequired ? <Badge tone="accent">required</Badge> : <span className="text-xs text-ink-faint">optional</span>;

const Notes = ({ row }: { row: TRow }) => (
  <>
    {row.description && <span className="text-ink-muted">{row.description}</span>}
    {row.rules.length > 0 && <span className="block text-xs text-ink-faint">{row.rules.join(' · ')}</span>}
  </>
);

const COLUMNS: readonly TDataColumn<TRow>[] = [
  { id: 'name', header: 'Name', width: 'w-44', cellClassName: 'align-top', cell: (r) => <code className="font-mono text-xs break-all text-ink">{r.path}</code> },
  { id: 'type', header: 'Type', width: 'w-44', cellClassName: 'align-top', cell: (r) => <code className="font-mono text-xs break-words text-ink-muted">{r.type}</code> },
  { id: 'required', header: 'Required', width: 'w-24', cellClassName: 'align-top', cell: (r) => <RequiredBadge isRequired={r.isRequired} /> },
  { id: 'notes', header: 'Description', cellClassName: 'align-top', cell: (r) => <Notes row={r} /> },
];

const ParamItem = ({ row }: { row: TRow }) => (
  <div className="flex flex-col gap-1 py-2.5 text-sm">
    <div className="flex flex-wrap items-center gap-2">
      <code className="font-mono text-xs break-all text-ink">{row.path}</code>
      <code className="font-mono text-xs text-ink-muted">{row.type}</code>
      <RequiredBadge isRequired={row.isRequired} />
    </div>
    {(row.description || row.rules.length > 0) && (
      <p>
        <Notes row={row} />
      </p>
    )}
  </div>
);

/** One method: its name, read or write, aliases, what it does, its params and an example. */
const MethodEntry = ({ method, onTry }: { method: TA2aMethod; onTry: (name: string) => void }) => {
  const rows = flattenFields(listParamFields(method.params));
  const titleId = `method-${method.name}`;
  return (
    <Card aria-labelledby={titleId} className="flex flex-col gap-3">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="flex min-w-0 flex-col gap-1.5">
          <div className="flex flex-wrap items-center gap-2">
            <h4 id={titleId} className="font-mono text-sm font-semibold break-all text-ink">
              {method.name}
            </h4>
            <Badge tone={method.kind === 'write' ? 'warn' : 'up'}>{method.kind}</Badge>
          </div>
          {method.aliases.length > 0 && (
            <p className="text-xs text-ink-faint">
              Also answers to{' '}
              {method.aliases.map((a, i) => (
                <span key={a}>
                  {i > 0 && ', '}
                  <code className="font-mono text-ink-muted">{a}</code>
                </span>
              ))}
            </p>
          )}
        </div>
        <Button variant="secondary" size="sm" onClick={() => onTry(method.name)} aria-label={`Try ${method.name}`}>
          Try it
        </Button>
      </div>
      <p className="text-sm text-ink-muted">{method.summary}</p>
      {rows.length === 0 ? (
        <p className="text-sm text-ink-faint">No params.</p>
      ) : (
        <div className="-mx-5 sm:-mx-6">
          <DataTable
            rows={rows}
            columns={COLUMNS}
            rowKey={(r) => r.path}
            caption={`Params of ${method.name}`}
            isFixed
            renderItem={(r) => <ParamItem row={r} />}
            listClassName="divide-y divide-line border-t border-line px-5"
          />
        </div>
      )}
      {rows.some((r) => r.isRequired) && <CodeBlock label="Example params">{toJson(exampleParams(method.params))}</CodeBlock>}
    </Card>
  );
};

/** Every method, by group, and the A2A protocol's own methods. */
export const MethodReference = ({
  methods,
  protocolMethods,
  onTry,
}: {
  methods: readonly TA2aMethod[];
  protocolMethods: readonly TA2aProtocolMethod[];
  onTry: (name: string) => void;
}) => (
  <div className="flex flex-col gap-8">
    {groupMethods(methods).map((g) => (
      <section key={g.value} aria-labelledby={`group-${g.value}`} className="flex flex-col gap-3">
        <div>
          <h3 id={`group-${g.value}`} className="text-lg font-semibold tracking-tight text-ink">
            {g.label} <span className="text-sm font-normal text-ink-faint">({g.methods.length})</span>
          </h3>
          <p className="text-sm text-ink-muted">{g.description}</p>
        </div>
        <ul className="flex flex-col gap-3">
          {g.methods.map((m) => (
            <li key={m.name}>
              <MethodEntry method={m} onTry={onTry} />
            </li>
          ))}
        </ul>
      </section>
    ))}
    {protocolMethods.length > 0 && (
      <section aria-labelledby="group-protocol" className="flex flex-col gap-3">
        <div>
          <h3 id="group-protocol" className="text-lg font-semibold tracking-tight text-ink">
            A2A protocol <span className="text-sm font-normal text-ink-faint">({protocolMethods.length})</span>
          </h3>
          <p className="text-sm text-ink-muted">
            The protocol&apos;s own methods, for A2A SDKs: a message whose data part names a method runs it and answers a finished task.
          </p>
        </div>
        <ul className="flex flex-col gap-3">
          {protocolMethods.map((m) => (
            <li key={m.name}>
              <Card aria-labelledby={`method-${m.name}`} className="flex flex-col gap-3">
                <div className="flex flex-wrap items-start justify-between gap-3">
                  <h4 id={`method-${m.name}`} className="font-mono text-sm font-semibold text-ink">
                    {m.name}
                  </h4>
                  <Button variant="secondary" size="sm" onClick={() => onTry(m.name)} aria-label={`Try ${m.name}`}>
                    Try it
                  </Button>
                </div>
                <p className="text-sm text-ink-muted">{m.summary}</p>
                {PROTOCOL_EXAMPLES[m.name] && <CodeBlock label="Example params">{toJson(PROTOCOL_EXAMPLES[m.name])}</CodeBlock>}
              </Card>
            </li>
          ))}
        </ul>
      </section>
    )}
  </div>
);
