// What a screen's view tests share: the two render modes (StrictMode and without it), the app
// started once, and a scripted API answering by "METHOD /path" (without /api) from a queue, the last answer
// repeating; anything not scripted is a 404. Each test ends unmounted, with no toast and no script left.
import type { ReactNode } from 'react';
import { StrictMode } from 'react';
import { act, cleanup } from '@testing-library/react';
import { toast } from 'react-hot-toast/headless';
import { afterEach, beforeAll } from 'vitest';
import { json, installFakeFetch } from '../fixtures/fake-fetch';
import { startApp } from './app';

export const RENDER_MODES: Array<[string, (node: ReactNode) => ReactNode]> = [
  ['StrictMode', (node) => <StrictMode>{node}</StrictMode>],
  ['plain', (node) => node],
];

export type Script = Record<string, Array<Response | (() => Response)>>;

/** Registers the app, the fake fetch and the clean-up around each test of the calling file. */
export function setUpScreenTest() {
  const fake = installFakeFetch();
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
  const calls = (method: string, path: string) =>
    fake.requests.filter((r) => r.method === method && new URL(r.url, 'http://localhost').pathname === `/api${path}`);
  beforeAll(startApp);
  afterEach(() => {
    cleanup();
    act(() => toast.remove());
    api.script = {};
  });
  return Object.assign(api, { calls });
}
