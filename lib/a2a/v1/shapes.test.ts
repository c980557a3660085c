import { describe, expect, it } from 'vitest';
import {
  decodePageToken,
  encodePageToken,
  messageFromV1,
  messageToV1,
  negotiateVersion,
  partFromV1,
  partToV1,
  sendMessageResult,
  stateFromV1,
  stateToV1,
  taskToV1,
} from './shapes';

describe('A2A 1.0 shapes', () => {
  it('negotiates the version: none is 0.3, 1.0 and 0.3 (with a patch) are ours, anything else is not', () => {
    expect([undefined, null, '', ' '].map(negotiateVersion)).toEqual(['0.3', '0.3', '0.3', '0.3']);
    expect(['1.0', '1.0.0', '0.3', '0.3.0'].map(negotiateVersion)).toEqual(['1.0', '1.0', '0.3', '0.3']);
    expect(['2.0', '1.1', '0.2', 'v1', '1'].map(negotiateVersion)).toEqual([null, null, null, null, null]);
  });

  it('maps parts both ways: 1.0 has no kind, 0.3 has one', () => {
    expect(partFromV1({ data: { method: 'a2a.getBalance' } })).toEqual({ kind: 'data', data: { method: 'a2a.getBalance' } });
    expect(partFromV1({ text: 'hi', metadata: { a: 1 } })).toEqual({ kind: 'text', text: 'hi', metadata: { a: 1 } });
    expect(partFromV1({ url: 'https://x/y', mediaType: 'image/png' })).toEqual({ kind: 'file', file: { uri: 'https://x/y', mimeType: 'image/png' } });
    expect(partToV1({ kind: 'data', data: { a: 1 } })).toEqual({ data: { a: 1 } });
    expect(partToV1({ kind: 'text', text: 't' })).toEqual({ text: 't' });
    expect(partToV1({ kind: 'file', file: { uri: 'u', mimeType: 'm', name: 'n' } })).toEqual({ url: 'u', mediaType: 'm', filename: 'n' });
  });

  it('maps messages: roles as ROLE_* enum names, parts mapped, empty ids left out', () => {
    const v1 = { messageId: 'm1', role: 'ROLE_USER', parts: [{ data: { method: 'x' } }, 7], contextId: '' };
    expect(messageFromV1(v1)).toEqual({ kind: 'message', messageId: 'm1', role: 'user', parts: [{ kind: 'data', data: { method: 'x' } }] });
    expect(messageToV1({ kind: 'message', role: 'agent', messageId: 'a', parts: [{ kind: 'text', text: 'x' }], contextId: 'c' })).toEqual({
      messageId: 'a',
      role: 'ROLE_AGENT',
      parts: [{ text: 'x' }],
      contextId: 'c',
    });
  });

  it('maps task states to TASK_STATE_* names and back (by name or enum number)', () => {
    expect(stateToV1('completed')).toBe('TASK_STATE_COMPLETED');
    expect(stateToV1('failed')).toBe('TASK_STATE_FAILED');
    expect(stateToV1('input-required')).toBe('TASK_STATE_INPUT_REQUIRED');
    expect(stateFromV1('TASK_STATE_COMPLETED')).toBe('completed');
    expect(stateFromV1(4)).toBe('failed');
    expect(stateFromV1('NOPE')).toBeNull();
  });

  const task = {
    kind: 'task' as const,
    id: 't1',
    contextId: 'c1',
    status: { state: 'completed', timestamp: '2030-01-01T00:00:00.000Z' },
    artifacts: [{ artifactId: 't1-result', name: 'a2a.getBalance', parts: [{ kind: 'data', data: { balance: '1' } }] }],
    metadata: { method: 'a2a.getBalance' },
  };

  it('writes a task as 1.0 does (no kind), artifacts left out on request, and SendMessage answers {task} or {message}', () => {
    const v1 = taskToV1(task);
    expect(v1).toEqual({
      id: 't1',
      contextId: 'c1',
      status: { state: 'TASK_STATE_COMPLETED', timestamp: '2030-01-01T00:00:00.000Z' },
      artifacts: [{ artifactId: 't1-result', name: 'a2a.getBalance', parts: [{ data: { balance: '1' } }] }],
      metadata: { method: 'a2a.getBalance' },
    });
    expect(taskToV1(task, { includeArtifacts: false }).artifacts).toBeUndefined();
    expect(sendMessageResult(task)).toEqual({ task: v1 });
    const failed = taskToV1({ ...task, status: { state: 'failed', message: { kind: 'message', role: 'agent', messageId: 'e', parts: [{ kind: 'data', data: { error: {} } }] } }, artifacts: [] });
    expect(failed.status).toEqual({ state: 'TASK_STATE_FAILED', message: { messageId: 'e', role: 'ROLE_AGENT', parts: [{ data: { error: {} } }] } });
    expect(sendMessageResult({ kind: 'message', role: 'agent', messageId: 'm', parts: [] })).toEqual({ message: { messageId: 'm', role: 'ROLE_AGENT', parts: [] } });
  });

  it('page tokens round-trip and refuse what is not ours', () => {
    const at = { createdAt: new Date('2030-01-01T00:00:00.123Z'), id: 'abc' };
    expect(decodePageToken(encodePageToken(at))).toEqual(at);
    for (const bad of ['', 'x', Buffer.from('{"a":1}').toString('base64url'), Buffer.from('["nope","id"]').toString('base64url')]) expect(decodePageToken(bad)).toBeNull();
  });
});
