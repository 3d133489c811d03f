// The guardian app's wall (GUARDIAN_WALL_API) against the real server: a director posts with an image to
// one course; a guardian of that course gets it (list, one post, the image), a guardian of another course
// does not, nor one whose only child in that course was withdrawn or erased; a level reaches its courses; whole-school
// posts reach everyone; nothing that is not on the wall; another school's guardian never; bearer token.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assert } from 'superstruct';
import { GUARDIAN_WALL_API, type NewsPost } from '../../shared/news-contract';
import { NewsPostStruct } from '../../shared/news-structs';
import { array } from 'superstruct';
import { one, rows } from './support/compose';
import {
  created,
  dataOf,
  DIRECTOR,
  fieldErrors,
  guardianToken,
  json,
  MX_ADMIN,
  startNewsServer,
  uploadPng,
  type NewsServer,
} from './support/news';

let server: NewsServer;

interface WallPage {
  data: NewsPost[];
  meta: { current_page: number; last_page: number; per_page: number; total: number };
  links: { first: string; last: string; prev: string | null; next: string | null };
}

function app(pathname: string, token?: string): Promise<Response> {
  return fetch(`${server.url}/api${pathname}`, { headers: token ? { Authorization: `Bearer ${token}`, Accept: 'application/json' } : {} });
}
async function wall(token: string, page = 1): Promise<WallPage> {
  const res = await app(`${GUARDIAN_WALL_API.wall}?page=${page}`, token);
  expect(res.status).toBe(200);
  const body = (await res.json()) as WallPage;
  assert(body.data, array(NewsPostStruct));
  return body;
}
async function wallIds(token: string): Promise<number[]> {
  const first = await wall(token);
  const ids = first.data.map((p) => p.id);
  for (let p = 2; p <= first.meta.last_page; p += 1) ids.push(...(await wall(token, p)).data.map((x) => x.id));
  return ids;
}

/** Guardians of San Andrés picked from the seed: one of course A, one with no child in A's level, one whose only child in A leaves. */
const g = {
  course: 0,
  level: 0,
  otherCourseSameLevel: 0,
  reader: 0,
  outsider: 0,
  sameLevel: 0,
  withdrawn: 0,
  withdrawnStudent: 0,
  erased: 0,
  erasedStudent: 0,
  mexican: 0,
};

beforeAll(async () => {
  server = await startNewsServer();
  const school = await one<{ id: number }>(server.db, sql`select institution_id as id from users where email = ${DIRECTOR}`);
  // A level with at least two courses, each with enrolled students.
  const pick = await one<{ course: number; level: number; other: number }>(
    server.db,
    sql`select a.id as course, a.level_id as level, b.id as other from courses a join courses b on b.level_id = a.level_id and b.id <> a.id
        where a.institution_id = ${school.id}
          and exists (select 1 from students s where s.course_id = a.id) and exists (select 1 from students s where s.course_id = b.id)
        order by a.id limit 1`,
  );
  Object.assign(g, { course: pick.course, level: pick.level, otherCourseSameLevel: pick.other });
  // Guardians whose children are all in one course, so "another course" means exactly that.
  const onlyIn = (courseFilter: ReturnType<typeof sql>) => sql`select sg.guardian_id as id, min(s.id) as student from student_guardians sg
      join students s on s.id = sg.student_id where s.institution_id = ${school.id} and s.withdrawn_at is null
      group by sg.guardian_id having bool_and(${courseFilter}) order by sg.guardian_id`;
  const inA = await rows<{ id: number; student: number }>(server.db, onlyIn(sql`s.course_id = ${g.course}`));
  g.reader = inA[0]!.id;
  // The withdrawn one: a guardian whose only child is in A and is the only guardian... of a student no reader shares.
  const candidate = inA.find((x) => x.id !== g.reader && x.student !== inA[0]!.student)!;
  g.withdrawn = candidate.id;
  g.withdrawnStudent = candidate.student;
  // The erased one: likewise, their only child in A erased (an erased child is one who left the school).
  const erasedCandidate = inA.find(
    (x) => ![g.reader, g.withdrawn].includes(x.id) && ![inA[0]!.student, g.withdrawnStudent].includes(x.student),
  )!;
  g.erased = erasedCandidate.id;
  g.erasedStudent = erasedCandidate.student;
  g.sameLevel = (await rows<{ id: number }>(server.db, onlyIn(sql`s.course_id = ${g.otherCourseSameLevel}`)))[0]!.id;
  g.outsider = (
    await rows<{ id: number }>(
      server.db,
      onlyIn(sql`s.course_id in (select c.id from courses c where c.level_id <> ${g.level} and c.institution_id = ${school.id})`),
    )
  )[0]!.id;
  g.mexican = (
    await one<{ id: number }>(
      server.db,
      sql`select g.id from guardians g join users u on u.institution_id = g.institution_id where u.email = ${MX_ADMIN} order by g.id limit 1`,
    )
  ).id;
  await server.db.execute(sql`update students set withdrawn_at = now() - interval '1 day' where id = ${g.withdrawnStudent}`);
  await server.db.execute(sql`update students set erased_at = now() - interval '1 day' where id = ${g.erasedStudent}`);
});
afterAll(async () => {
  await server?.close();
});

describe('GET /app/wall', () => {
  it('gives a course’s post with its image to that course’s guardians only', async () => {
    const director = await server.as(DIRECTOR);
    const image = await uploadPng(director, 'gira.png');
    const post = await created(director, {
      title: 'Gira de estudios',
      audience: { scope: 'groups', level_ids: [], course_ids: [g.course] },
      attachment_ids: [image.id],
    });
    const [reader, outsider, sameLevel, withdrawn, erased] = await Promise.all(
      [g.reader, g.outsider, g.sameLevel, g.withdrawn, g.erased].map((id) => guardianToken(server.db, id)),
    );
    expect(await wallIds(reader!)).toContain(post.id);
    const one = await dataOf<NewsPost>(await app(GUARDIAN_WALL_API.post(post.id), reader));
    expect([one.title, one.editable, one.deleted_at, one.deleted_by]).toEqual(['Gira de estudios', false, null, null]);
    // Which other courses a post was for is not a guardian's business.
    expect(one.audience_names).toEqual([]);
    expect(one.attachments).toEqual([
      expect.objectContaining({ id: image.id, is_image: true, url: GUARDIAN_WALL_API.attachment(post.id, image.id) }),
    ]);
    const file = await app(one.attachments[0]!.url, reader);
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toBe('image/png');
    for (const token of [outsider!, sameLevel!, withdrawn!, erased!]) {
      expect(await wallIds(token)).not.toContain(post.id);
      expect((await app(GUARDIAN_WALL_API.post(post.id), token)).status).toBe(404);
      expect((await app(GUARDIAN_WALL_API.attachment(post.id, image.id), token)).status).toBe(404);
    }
    // A file id of another post through this post's address is not found.
    const other = await uploadPng(director, 'otra.png');
    await created(director, { attachment_ids: [other.id] });
    expect((await app(GUARDIAN_WALL_API.attachment(post.id, other.id), reader)).status).toBe(404);
  });

  it('gives a level’s post to every course of it, a whole-school post to all, and nothing off the wall', async () => {
    const director = await server.as(DIRECTOR);
    const level = await created(director, {
      title: 'Salida del nivel',
      audience: { scope: 'groups', level_ids: [g.level], course_ids: [] },
    });
    const school = await created(director, { title: 'Aniversario del colegio' });
    const scheduled = await created(director, { title: 'Más adelante', publish_at: new Date(Date.now() + 86_400_000).toISOString() });
    const off = await created(director, { title: 'Quitada' });
    await dataOf(await director.post(`/api/news/${off.id}/unpublish`));
    const trashed = await created(director, { title: 'Borrada' });
    await dataOf(await json(director, 'DELETE', `/api/news/${trashed.id}`));
    const [reader, sameLevel, outsider] = await Promise.all([g.reader, g.sameLevel, g.outsider].map((id) => guardianToken(server.db, id)));
    expect(await wallIds(sameLevel!)).toContain(level.id);
    expect(await wallIds(reader!)).toContain(level.id);
    expect(await wallIds(outsider!)).not.toContain(level.id);
    for (const token of [reader!, sameLevel!, outsider!]) {
      const ids = await wallIds(token);
      expect(ids).toContain(school.id);
      for (const hidden of [scheduled, off, trashed]) expect(ids).not.toContain(hidden.id);
      expect((await app(GUARDIAN_WALL_API.post(scheduled.id), token)).status).toBe(404);
    }
    // Another school's guardian sees none of it.
    const mexican = await guardianToken(server.db, g.mexican);
    const theirs = await wallIds(mexican);
    for (const p of [level, school]) expect(theirs).not.toContain(p.id);
    expect((await app(GUARDIAN_WALL_API.post(school.id), mexican)).status).toBe(404);
  });

  it('pages by number, newest first with pinned on top, and needs the bearer token', async () => {
    const director = await server.as(DIRECTOR);
    const pinned = await created(director, { title: 'Destacada', pinned: true });
    const token = await guardianToken(server.db, g.reader);
    const first = await wall(token);
    expect(first.data[0]!.id).toBe(pinned.id);
    expect(first.meta.per_page).toBe(20);
    expect(first.links.first).toBe('/api/app/wall?page=1');
    expect(await fieldErrors(await app('/api/app/wall?page=0'.replace('/api', ''), token))).toEqual({
      page: ['La página debe ser un número entero mayor o igual a 1.'],
    });
    expect((await app(GUARDIAN_WALL_API.wall)).status).toBe(401);
    expect((await app(GUARDIAN_WALL_API.post(pinned.id), 'x'.repeat(40))).status).toBe(401);
  });
});
