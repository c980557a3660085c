// The HTTP server behind `npm run dev` and `npm start`: Next.js with one addition. Route handlers
// cannot see the socket, and Next keeps a client-sent X-Forwarded-For as it is, so anonymous rate
// limits could be dodged by inventing addresses. Here the socket address is written into
// X-Client-Socket-Address (overwriting anything the client sent) before Next sees the request.
import { createServer } from 'node:http';

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
  req.headers['x-client-socket-address'] = req.socket.remoteAddress ?? '';
  handle(req, res);
}).listen(port, hostname, () => {
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
