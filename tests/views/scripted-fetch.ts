// A scripted API for view tests: answers by "METHOD /path" (without /api) from a queue, the last answer
// repeating; anything not scripted is a 404. Registers the fake fetch around each test of the calling file.
import { json, useFakeFetch } from '../fixtures/fake-fetch';

export type Script = Record<string, Array<Response | (() => Response)>>;

export function useScriptedApi() {
  const fake = useFakeFetch();
  const api = { script: {} as Script, requests: fake.requests };
  fake.answer = (url: string) => {
    const path = new URL(url, 'http://localhost').pathname.replace(/^\/api/, '');
    const method = fake.requests.at(-1)?.method ?? 'GET';
    const queue = api.script[`${method} ${path}`];
    const next = queue?.length ? (queue.length > 1 ? queue.shift() : queue[0]) : undefined;
    if (!next) return json(404, { message: 'No encontrado', code: 'not_found' });
    return typeof next === 'function' ? next() : next.clone();
  };
  /** The requests made with this method to this path (without /api). */
  const calls = (method: string, path: string) => fake.requests.filter((r) => r.method === method && new URL(r.url, 'http://localhost').pathname === `/api${path}`);
  return Object.assign(api, { calls });
}
