// The HTTP server behind `npm run dev` and `npm start`: Next.js with two additions, both in
// lib/http/node-guard.mjs. Before Next sees a request, the socket address is written into
// X-Client-Socket-Address (route handlers cannot see the socket, and Next keeps a client-sent
// X-Forwarded-For, so anonymous rate limits could be dodged by inventing addresses), and an /api
// request whose path or query does not decode is handed to the API's JSON 400 instead of Next's
// plain-text 500. And what Node's own parser refuses (headers over 16 KB: 431, a request line
// too long: 414, not HTTP: 400) is answered in the API's JSON error envelope, not a bare status.
import { createServer } from 'node:http';
import { answerClientError, guardRequest } from './lib/http/node-guard.mjs';

const dev = process.argv.includes('--dev');
process.env.NEXT_TELEMETRY_DISABLED = '1';
// Set before Next.js loads: it reads NODE_ENV when its modules are evaluated.
process.env.NODE_ENV ??= dev ? 'development' : 'production';
const { default: next } = await import('next');
const port = Number(process.env.PORT ?? 3000);
const hostname = process.env.HOSTNAME ?? '0.0.0.0';

const app = next({ dev, port, hostname: hostname === '0.0.0.0' ? 'localhost' : hostname });
const handle = app.getRequestHandler();
await app.prepare();

const server = createServer((req, res) => {
  guardRequest(req);
  handle(req, res);
})
  .on('clientError', (err, socket) => answerClientError(err, socket))
  .listen(port, hostname, () => {
    console.log(`> ${dev ? 'Development' : 'Production'} server on http://localhost:${port}`);
  });

// A stop signal ends the process through process.exit, so exit hooks run (the embedded
// database's lock file is released; a --cpu-prof profile is written).
for (const signal of ['SIGTERM', 'SIGINT']) {
  process.once(signal, () => {
    server.close();
    process.exit(0);
  });
}
