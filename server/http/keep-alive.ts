import type { ServerType } from '@hono/node-server';

// The embedded database runs on the server's thread, so a heavy moment (a 10,000-delivery fan-out) can hold
// it for seconds; with Node's 5 s keep-alive, the overdue timer then closed sockets a client was reusing that
// very moment (ECONNRESET). A longer keep-alive, as behind load balancers, avoids that race.
export function keepSocketsAlive(server: ServerType): void {
  if ('keepAliveTimeout' in server) {
    server.keepAliveTimeout = 65_000;
    server.headersTimeout = 66_000;
  }
}
