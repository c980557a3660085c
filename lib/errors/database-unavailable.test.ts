/**
 * Which errors count as "database unavailable" (answered 503, not 500): the shapes postgres.js
 * really raises, bare and wrapped, and the look-alikes that must not count (a client's hang-up,
 * a constraint violation, a statement timeout).
 */
import { describe, expect, it } from 'vitest';
import { isDatabaseUnavailable } from './database-unavailable';

/** An error as postgres.js rejects a query with: its code, and a non-enumerable `query`. */
const driverError = (props: Record<string, unknown>) => {
  const e = Object.assign(new Error(String(props.code)), props);
  Object.defineProperty(e, 'query', { value: 'select 1', enumerable: false });
  return e;
};
/** drizzle's wrapper: its own `query`, the driver's error as cause. */
const wrapped = (cause: unknown) => Object.assign(new Error('Failed query: select 1'), { query: 'select 1', params: [], cause });

describe('isDatabaseUnavailable', () => {
  it.each(['CONNECTION_CLOSED', 'CONNECTION_ENDED', 'CONNECTION_DESTROYED', 'CONNECT_TIMEOUT'])('driver code %s', (code) => {
    expect(isDatabaseUnavailable(driverError({ code, errno: code }))).toBe(true);
    expect(isDatabaseUnavailable(wrapped(driverError({ code })))).toBe(true);
  });

  it('a refused connection, even without a query attached', () => {
    expect(isDatabaseUnavailable(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5999'), { code: 'ECONNREFUSED', syscall: 'connect' }))).toBe(true);
    expect(isDatabaseUnavailable(wrapped(driverError({ code: 'ECONNREFUSED' })))).toBe(true);
  });

  it('a reset of the database socket, but not a client hanging up', () => {
    expect(isDatabaseUnavailable(driverError({ code: 'ECONNRESET', syscall: 'read' }))).toBe(true);
    expect(isDatabaseUnavailable(wrapped(Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' })))).toBe(true);
    // What a request body read raises when the client goes away.
    expect(isDatabaseUnavailable(Object.assign(new Error('aborted'), { code: 'ECONNRESET' }))).toBe(false);
  });

  it.each(['57P01', '57P02', '57P03', '08006', '08001', '08003', '53300'])('SQLSTATE %s', (code) => {
    expect(isDatabaseUnavailable(wrapped(driverError({ code, severity: 'FATAL' })))).toBe(true);
  });

  it.each(['23505', '40001', '57014', '22003', '42P01', 'UNSAFE_TRANSACTION'])('not for %s', (code) => {
    expect(isDatabaseUnavailable(wrapped(driverError({ code })))).toBe(false);
  });

  it('not for things that are not errors', () => {
    expect(isDatabaseUnavailable(undefined)).toBe(false);
    expect(isDatabaseUnavailable('CONNECTION_CLOSED')).toBe(false);
    expect(isDatabaseUnavailable(new Error('CONNECTION_CLOSED'))).toBe(false);
  });
});
