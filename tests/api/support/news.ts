// Helpers for the news wall's API tests: a real server with the guardian app mounted (its SMS captured),
// the demo staff signed in by e-mail, posts and categories made through the API, and guardian tokens
// opened directly (the SMS sign-in is guardian-app.test.ts's subject).
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { expect } from 'vitest';
import type { ApiError } from '../../../shared/contract';
import type { NewsCategory, NewsInput, NewsPost } from '../../../shared/news-contract';
import { newsInput } from '../../fixtures/news';
import { createApp } from '../../../server/app';
import { openSession } from '../../../server/app-api/tokens';
import type { Db } from '../../../server/db/client';
import { pngImage } from '../../../server/seed/png';
import { capturedSms } from './app-sms';
import { one, uploadOk } from './compose';
import { Client, listen, makeDist, openSeededCopy, testConfig } from './server';

export const ADMIN = 'administrador@sanandres.cl';
export const DIRECTOR = 'directora@sanandres.cl';
/** colegio-utp on device cl: a manager by role, refused by device. */
export const UTP_CL = 'utp@sanandres.cl';
export const TEACHER_CL = 'docente@sanandres.cl';
export const TEACHER = 'docente.latam@sanandres.cl';
/** corp-utp, latam: reads the wall, manages nothing. */
export const CORP = 'corp.utp@sanandres.cl';
export const MX_ADMIN = 'administrador@benitojuarez.edu.mx';

export interface NewsServer {
  url: string;
  db: Db;
  attachmentsDir: string;
  as(email: string): Promise<Client>;
  close(): Promise<void>;
}

export async function startNewsServer(): Promise<NewsServer> {
  const copy = await openSeededCopy();
  const app = createApp({
    db: copy.handle.db,
    distDir: makeDist(copy.root),
    config: testConfig({ attachmentsDir: copy.attachmentsDir, outboxDir: path.join(copy.root, 'outbox') }),
    delivery: capturedSms().delivery,
  });
  const server = await listen(app);
  const clients = new Map<string, Client>();
  return {
    url: server.url,
    db: copy.handle.db,
    attachmentsDir: copy.attachmentsDir,
    as: async (email) => {
      let client = clients.get(email);
      if (!client) {
        client = new Client(server.url);
        const res = await client.login(email);
        if (res.status !== 200) throw new Error(`${email} no pudo iniciar sesión: ${res.status}`);
        clients.set(email, client);
      }
      return client;
    },
    close: async () => {
      await server.close();
      await copy.dispose();
    },
  };
}

export const png = (rgb: [number, number, number] = [30, 90, 160]) => new Uint8Array(pngImage(24, 16, rgb));

export const uploadPng = (client: Client, name = 'foto.png') => uploadOk(client, name, 'image/png', png());

/** A post's body (tests/fixtures/news.ts). */
export const postInput = newsInput;

export const json = (client: Client, method: 'PATCH' | 'PUT' | 'DELETE' | 'POST', pathname: string, body?: unknown) =>
  client.fetch(pathname, {
    method,
    headers: { 'Content-Type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });

export async function created(client: Client, overrides: Partial<NewsInput> = {}): Promise<NewsPost> {
  const res = await client.post('/api/news', postInput(overrides));
  if (res.status !== 201) throw new Error(`POST /api/news → ${res.status} ${await res.text()}`);
  return ((await res.json()) as { data: NewsPost }).data;
}

export async function category(client: Client, name: string): Promise<NewsCategory> {
  const res = await client.post('/api/news-categories', { name });
  if (res.status !== 201) throw new Error(`POST /api/news-categories → ${res.status} ${await res.text()}`);
  return ((await res.json()) as { data: NewsCategory }).data;
}

export async function dataOf<T>(res: Response, status = 200): Promise<T> {
  if (res.status !== status) throw new Error(`${res.url} → ${res.status} ${await res.text()}`);
  return ((await res.json()) as { data: T }).data;
}

export async function errorOf(res: Response, status: number, code: string): Promise<ApiError> {
  expect(res.status).toBe(status);
  const body = (await res.json()) as ApiError;
  expect(body.code).toBe(code);
  return body;
}

/** The 422's per-field messages. */
export async function fieldErrors(res: Response): Promise<Record<string, string[]>> {
  const body = await errorOf(res, 422, 'validation.failed');
  return body.errors ?? {};
}

/** A bearer token of the guardian app for a guardian, as the SMS sign-in would open it. */
export async function guardianToken(db: Db, guardianId: number): Promise<string> {
  const g = await one<{ institution_id: number }>(db, sql`select institution_id from guardians where id = ${guardianId}`);
  return (await openSession(db, { id: guardianId, institutionId: g.institution_id }, new Date())).token;
}

export const institutionOf = async (db: Db, email: string) =>
  (await one<{ id: number }>(db, sql`select institution_id as id from users where email = ${email}`)).id;
