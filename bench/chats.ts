/**
 * Figure "chat send and deliver": 200 members in 50 group chats of 4, each member with an SSE
 * stream open on its chat's channel, and 32 concurrent senders posting through
 * POST /api/chats/{id}/message (each send by the next member in turn, so no one person floods).
 *
 *   - messages/s through the API, beside the same statements one send issues (the caller by
 *     token subject; then, in one transaction, the lock that takes the seq, the context read and
 *     the write with its outbox row: lib/chats/service/send-message.ts builds them for both)
 *     sent directly through postgres.js at the same concurrency;
 *   - send-to-receive latency p50/p99: from the moment a send is issued to the moment each
 *     member's open stream has its chat_message (goal p99 under 100 ms on a quiet machine),
 *     beside the send's own round trip (the floor: a message cannot arrive before it is stored).
 *
 * Sends refused by the rate limits (60 a minute per person) or the flood rule are counted and
 * printed, not in the rate.
 */
import http from 'node:http';
import type { SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import postgres from 'postgres';
import { buildSendContextStatement, buildSendLockStatement, buildSendWriteStatement } from '@/lib/chats/service/send-message';
import { driveLoops, percentile, type TFigure } from './figures';

const CHATS = 50;
const PER_CHAT = 4;
const SENDERS = 32;

type TMe = { user: { id: string } };

const json = async <T>(res: Response): Promise<T> => (await res.json()) as T;

/** Opens one SSE stream on `channel`; calls onContent(content) for each chat_message frame. */
const subscribe = (base: string, token: string, channel: string, agent: http.Agent, onContent: (content: string, at: number) => void) =>
  new Promise<http.ClientRequest>((resolve, reject) => {
    const req = http.get(
      `${base}/api/sse/events?channels=${encodeURIComponent(channel)}`,
      { agent, headers: { authorization: `Bearer ${token}`, accept: 'text/event-stream' } },
      (res) => {
        if (res.statusCode !== 200) {
          reject(new Error(`SSE answered ${res.statusCode}`));
          res.resume();
          return;
        }
        let buf = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          const at = performance.now();
          buf += chunk;
          for (let end = buf.indexOf('\n\n'); end >= 0; end = buf.indexOf('\n\n')) {
            const frame = buf.slice(0, end);
            buf = buf.slice(end + 2);
            const m = /"content": ?"(bench [0-9]+)"/.exec(frame);
            if (m) onContent(m[1]!, at);
          }
        });
        res.on('error', () => {});
        resolve(req);
      },
    );
    req.on('error', reject);
  });

export const benchChatSendDeliver = async (ctx: { base: string; sql: postgres.Sql; tokens: string[]; subjects: string[]; figures: TFigure[]; seconds: number }) => {
  const { base, sql, tokens, subjects, figures, seconds } = ctx;
  const members = CHATS * PER_CHAT;
  console.log(`\nchat send and deliver: ${members} members in ${CHATS} chats, ${SENDERS} senders, ${seconds}s…`);
  const auth = (i: number) => ({ authorization: `Bearer ${tokens[i]!}`, 'content-type': 'application/json' });
  const ids: string[] = [];
  for (let i = 0; i < members; i += 20) {
    const batch = await Promise.all(
      Array.from({ length: Math.min(20, members - i) }, (_, k) => fetch(`${base}/api/users/me`, { headers: auth(i + k) }).then((r) => json<TMe>(r))),
    );
    ids.push(...batch.map((b) => b.user.id));
  }
  const chatIds: string[] = [];
  for (let c = 0; c < CHATS; c++) {
    const owner = c * PER_CHAT;
    const res = await fetch(`${base}/api/chats`, {
      method: 'POST',
      headers: auth(owner),
      body: JSON.stringify({ name: `Bench chat ${c}`, isGroup: true, participantIds: ids.slice(owner + 1, owner + PER_CHAT) }),
    });
    const body = await json<{ chat?: { id: string } }>(res);
    if (!body.chat) throw new Error(`could not create a chat: ${JSON.stringify(body)}`);
    chatIds.push(body.chat.id);
    // The others are invited: each accepts, and is then a member who hears the chat.
    for (let m = owner + 1; m < owner + PER_CHAT; m++) {
      const answer = await fetch(`${base}/api/chats/${body.chat.id}/invitation/accept`, { method: 'POST', headers: auth(m) });
      if (answer.status !== 200) throw new Error(`could not accept an invitation: ${await answer.text()}`);
    }
  }

  // Every member listens on its chat.
  const sentAt = new Map<string, number>();
  const deliveries: number[] = [];
  const agent = new http.Agent({ keepAlive: true, maxSockets: Infinity });
  const streams: http.ClientRequest[] = [];
  for (let i = 0; i < members; i += 50) {
    streams.push(
      ...(await Promise.all(
        Array.from({ length: Math.min(50, members - i) }, (_, k) =>
          subscribe(base, tokens[i + k]!, `chat:${chatIds[Math.floor((i + k) / PER_CHAT)]!}`, agent, (content, at) => {
            const t0 = sentAt.get(content);
            if (t0 !== undefined) deliveries.push(at - t0);
          }),
        ),
      )),
    );
  }
  await new Promise((r) => setTimeout(r, 500));

  // Project: sends through the API.
  let n = 0;
  let refused = 0;
  const refusedCodes = new Map<string, number>();
  const project = await driveLoops(
    async () => {
      const k = n++;
      const chat = k % CHATS;
      const member = chat * PER_CHAT + (Math.floor(k / CHATS) % PER_CHAT);
      const content = `bench ${k}`;
      sentAt.set(content, performance.now());
      const res = await fetch(`${base}/api/chats/${chatIds[chat]!}/message`, { method: 'POST', headers: auth(member), body: JSON.stringify({ content }) });
      if (res.status !== 201) {
        refused++;
        const code = (await json<{ error?: { code?: string } }>(res)).error?.code ?? String(res.status);
        refusedCodes.set(code, (refusedCodes.get(code) ?? 0) + 1);
      } else await res.arrayBuffer();
    },
    { seconds, connections: SENDERS },
  );
  await new Promise((r) => setTimeout(r, 1000));
  for (const s of streams) s.destroy();
  agent.destroy();
  const sent = n - refused;
  if (refused) console.log(`  note: ${refused} sends refused (${[...refusedCodes].map(([c, k]) => `${c} ×${k}`).join(', ')})`);
  console.log(`  ${sent} messages sent, ${deliveries.length} deliveries (expected about ${sent * PER_CHAT})`);

  // Reference: the statements of one send, built by the service itself and sent directly through
  // postgres.js (prepared, as the service sends them): the caller by token subject, then the
  // lock, the context and the write in one transaction.
  const dialect = new PgDialect();
  let r = 0;
  const ref = await driveLoops(
    async () => {
      const k = r++;
      const chat = k % CHATS;
      const member = chat * PER_CHAT + (Math.floor(k / CHATS) % PER_CHAT);
      const chatId = chatIds[chat]!;
      const [u] = await sql`select * from users where auth_subject = ${subjects[member]!}`;
      const userId = u!.id as string;
      const run = (tx: postgres.TransactionSql, statement: SQL) => {
        const q = dialect.sqlToQuery(statement);
        return tx.unsafe(q.sql, q.params as never[], { prepare: true });
      };
      await sql.begin(async (tx) => {
        const [locked] = await run(tx, buildSendLockStatement(chatId, userId, new Date()));
        const seq = Number(locked!.seq);
        const at = new Date(locked!.at as string);
        await run(tx, buildSendContextStatement({ chatId, senderId: userId, seq, at, otherId: null }));
        await run(tx, buildSendWriteStatement({ messageId: crypto.randomUUID(), chatId, senderId: userId, content: `ref ${k}`, seq, at, otherId: null }));
      });
    },
    { seconds, connections: SENDERS },
  );

  const sorted = [...deliveries].sort((a, b) => a - b);
  figures.push({ name: 'chat messages/s', project: sent / seconds, reference: ref.rps, unit: 'msg/s', higherIsBetter: true });
  figures.push({ name: 'chat send p99', project: project.p99, reference: ref.p99, unit: 'ms', higherIsBetter: false });
  figures.push({
    name: 'chat deliver p50',
    project: percentile(sorted, 50),
    reference: project.p50,
    unit: 'ms',
    higherIsBetter: false,
    referenceIs: "the send's own round trip, p50",
  });
  figures.push({
    name: 'chat deliver p99',
    project: percentile(sorted, 99),
    reference: project.p99,
    unit: 'ms',
    higherIsBetter: false,
    referenceIs: "the send's own round trip, p99",
  });
};
