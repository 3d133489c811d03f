// An answer that can tell its progress as it goes: when the request asks for JSON lines (`Accept:
// application/x-ndjson`), a 200 whose lines are `{ "progress": … }` while the work runs and then one
// `{ "answer": { status, body } }` with what the request would have answered without them; otherwise the
// work's own answer, untouched. The progress travels on the request that does the work, so it holds with any
// number of server processes. The compression middleware leaves this type alone (it is not in its list), and
// `no-transform` asks proxies to do the same.
import type { Context } from 'hono';
import { stream } from 'hono/streaming';
import type { Logger } from '../log';
import { MESSAGES, apiError } from './errors';

const NDJSON = 'application/x-ndjson';

/**
 * Queues one progress line and lets the event loop turn once, so the line leaves now: PGlite answers its
 * queries without the loop turning, and a whole apply would otherwise go out at its end. It never waits for
 * the client: a reader that stalls must not hold apply's transaction open.
 */
export type Report<P> = (progress: P) => Promise<void>;

const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

const asksForLines = (c: Context): boolean => (c.req.header('accept') ?? '').toLowerCase().includes(NDJSON);

/** Runs `work`, streaming its reports when the client asked for them; `work` answers as a plain handler would. */
export function withProgress<P>(c: Context, logger: Logger, work: (report: Report<P>) => Promise<Response>): Promise<Response> | Response {
  if (!asksForLines(c)) return work(async () => {});
  c.header('Content-Type', `${NDJSON}; charset=utf-8`);
  c.header('Cache-Control', 'no-store, no-transform');
  // nginx would otherwise hold the lines until its buffer fills.
  c.header('X-Accel-Buffering', 'no');
  return stream(c, async (lines) => {
    const write = (line: unknown) => lines.write(`${JSON.stringify(line)}\n`).then(() => undefined);
    let answer: Response;
    try {
      answer = await work((progress) => {
        void write({ progress });
        return turn();
      });
    } catch (error) {
      // The 200 is already sent: the failure goes in the last line, as the app's error handler would say it.
      logger.error(`${c.req.method} ${c.req.path} falló`, error);
      answer = apiError(c, 500, 'server.error', MESSAGES.server);
    }
    await write({ answer: { status: answer.status, body: await answer.json() } });
  });
}
