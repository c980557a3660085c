import { A2AClient } from '@a2a-js/sdk/client';
import { expect, test } from '@playwright/test';
import { Role, TaskState } from 'a2a-sdk-v1';
import { ClientFactory, ClientFactoryOptions, DefaultAgentCardResolver, JsonRpcTransportFactory } from 'a2a-sdk-v1/client';
import { mintToken } from '../fixtures/auth';

/** fetch with the agent's bearer token, as an agent configures the official client. */
const withToken = (token: string): typeof fetch => (input, init) => {
  const headers = new Headers(init?.headers);
  headers.set('authorization', `Bearer ${token}`);
  return fetch(input, { ...init, headers });
};

const firstMarketId = async (baseURL: string) => {
  const markets = (await (await fetch(`${baseURL}/api/markets/predictions?limit=1`)).json()) as { questions: { id: string }[] };
  return markets.questions[0]!.id;
};

test('the official A2A SDK (0.3) resolves the card, sends message/send, reads the task and calls an a2a.* method', async ({}, testInfo) => {
  const baseURL = testInfo.project.use.baseURL!;
  const token = await mintToken(`e2e|sdk03${testInfo.project.name.slice(0, 3)}${Date.now().toString(36).slice(-6)}`);
  const marketId = await firstMarketId(baseURL);
  const client = await A2AClient.fromCardUrl(`${baseURL}/.well-known/agent-card.json`, { fetchImpl: withToken(token) });

  const sent = await client.sendMessage({
    message: { kind: 'message', messageId: crypto.randomUUID(), role: 'user', parts: [{ kind: 'data', data: { method: 'a2a.getMarketPrices', params: { marketId } } }] },
  });
  expect('error' in sent ? sent.error : null).toBeNull();
  const task = 'result' in sent ? sent.result : undefined;
  expect(task?.kind).toBe('task');
  if (task?.kind !== 'task') throw new Error('expected a task');
  expect(task.status.state).toBe('completed');
  const data = task.artifacts?.[0]?.parts[0];
  expect(data?.kind === 'data' ? data.data : null).toMatchObject({ marketId, prices: [{ outcome: 'YES' }, { outcome: 'NO' }] });

  const again = await client.getTask({ id: task.id });
  expect('result' in again ? again.result.id : null).toBe(task.id);

  // An a2a.* method through the client's extension-method call: the JSON-RPC answer as it came.
  const balance = (await client.callExtensionMethod('a2a.getBalance', {})) as unknown as { result: { balance: string } };
  expect(balance.result.balance).toMatch(/^\d+(\.\d+)?$/);
});

test('the official A2A SDK 1.x, with its legacy compatibility on, resolves the 0.3 card and gets a completed task', async ({}, testInfo) => {
  const baseURL = testInfo.project.use.baseURL!;
  const fetchImpl = withToken(await mintToken(`e2e|sdk1${testInfo.project.name.slice(0, 3)}${Date.now().toString(36).slice(-6)}`));
  const marketId = await firstMarketId(baseURL);
  const factory = new ClientFactory(
    ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
      transports: [new JsonRpcTransportFactory({ fetchImpl, legacyCompat: { enabled: true } })],
      cardResolver: new DefaultAgentCardResolver({ fetchImpl, legacyCompat: { enabled: true } }),
    }),
  );
  const client = await factory.createFromUrl(baseURL);
  const result = await client.sendMessage({
    tenant: '',
    configuration: undefined,
    metadata: undefined,
    message: {
      messageId: crypto.randomUUID(),
      contextId: '',
      taskId: '',
      role: Role.ROLE_USER,
      parts: [{ content: { $case: 'data', value: { method: 'a2a.getMarketData', params: { marketId } } }, metadata: undefined, filename: '', mediaType: '' }],
      metadata: undefined,
      extensions: [],
      referenceTaskIds: [],
    },
  });
  expect('status' in result ? result.status?.state : undefined).toBe(TaskState.TASK_STATE_COMPLETED);
  const part = 'artifacts' in result ? result.artifacts[0]?.parts[0]?.content : undefined;
  expect(part?.$case === 'data' ? part.value : null).toMatchObject({ marketId, outcomes: ['YES', 'NO'] });
});

test('the official A2A SDK 1.x with its default settings resolves the signed card, speaks 1.0: SendMessage gets a completed task, GetTask returns it', async ({}, testInfo) => {
  const baseURL = testInfo.project.use.baseURL!;
  const token = await mintToken(`e2e|sdk1d${testInfo.project.name.slice(0, 3)}${Date.now().toString(36).slice(-6)}`);
  const marketId = await firstMarketId(baseURL);
  // The defaults: the factory's own transports and card resolver (no legacy compatibility), the
  // bearer token passed with each call as a service parameter (an HTTP header on JSON-RPC).
  const client = await new ClientFactory().createFromUrl(baseURL);
  const options = { serviceParameters: { Authorization: `Bearer ${token}` } };
  const result = await client.sendMessage(
    {
      tenant: '',
      configuration: undefined,
      metadata: undefined,
      message: {
        messageId: crypto.randomUUID(),
        contextId: '',
        taskId: '',
        role: Role.ROLE_USER,
        parts: [{ content: { $case: 'data', value: { method: 'a2a.getMarketPrices', params: { marketId } } }, metadata: undefined, filename: '', mediaType: '' }],
        metadata: undefined,
        extensions: [],
        referenceTaskIds: [],
      },
    },
    options,
  );
  if (!('status' in result)) throw new Error('expected a task');
  expect(result.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
  const part = result.artifacts[0]?.parts[0]?.content;
  expect(part?.$case === 'data' ? part.value : null).toMatchObject({ marketId, prices: [{ outcome: 'YES' }, { outcome: 'NO' }] });

  const again = await client.getTask({ tenant: '', id: result.id, historyLength: undefined }, options);
  expect(again.id).toBe(result.id);
  expect(again.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
});
