import { describe, expect, it } from 'vitest';
import type { Recipients } from '../../shared/compose-contract';
import {
  buildRecipientIndex,
  countPeople,
  emptyGroups,
  labelOf,
  pickKey,
  pickOf,
  PREVIEW_LIMIT,
  search,
  withLists,
} from '../../shared/recipient-index';
import { recipientCourse, recipientGuardian, thirdGrade } from '../fixtures/recipients';

/**
 * Staff 900 is Marta Ramírez, so a staff search for "ramirez" finds both staff members; the elective
 * repeats Tomás and his guardian, who must stay one row.
 */
const RECIPIENTS = thirdGrade({
  teacher: 'Marta Ramírez',
  electives: [
    recipientCourse(
      20,
      'Electivo de Teatro',
      null,
      [{ id: 101, name: 'Tomás Núñez Díaz' }],
      [recipientGuardian(502, 101, 'Raúl Núñez Vera', 1, 'blue')],
    ),
  ],
});

const keys = (result: { preview: { key: string }[] }) => result.preview.map((item) => item.key);

describe('recipient index', () => {
  const index = buildRecipientIndex(RECIPIENTS);

  it('matches names by substring ignoring case and accents', () => {
    expect(keys(search(index, 'students', 'MUNOZ'))).toEqual(['student:100', 'family:100', 'guardian:500:100']);
    expect(keys(search(index, 'students', 'muñoz'))).toEqual(['student:100', 'family:100', 'guardian:500:100']);
    expect(keys(search(index, 'students', 'nunez d'))).toEqual(['student:101', 'family:101']);
    expect(keys(search(index, 'staff', 'ramirez'))).toEqual(['staff:900', 'staff:901']);
    expect(keys(search(index, 'staff', 'OSCAR'))).toEqual(['staff:901']);
    // Not a match across two names (the separator never matches).
    expect(search(index, 'students', 'rojastomas').total).toBe(0);
  });

  it('returns everything for an empty or blank query', () => {
    const all = search(index, 'students', '');
    // level, 2 courses, elective, 2 students (deduplicated) each with their family row, 3 guardian rows.
    expect(all.total).toBe(11);
    expect(search(index, 'students', '   ').total).toBe(11);
    expect(search(index, 'staff', '').total).toBe(4);
    expect(search(index, 'lists', '').total).toBe(0);
  });

  it('counts every match but previews at most 20', () => {
    const many: Recipients = {
      levels: [],
      appointments: [],
      courses: [
        {
          id: 1,
          nombre: 'Curso',
          grupo_type: 'curso',
          level_id: null,
          estudiantes: Array.from({ length: 45 }, (_, n) => ({ id: n + 1, name: `Estudiante Pérez ${n + 1}` })),
          apoderados: [],
        },
      ],
    };
    // Each student and, next to them, their family.
    const result = search(buildRecipientIndex(many), 'students', 'perez');
    expect(result.total).toBe(90);
    expect(result.preview).toHaveLength(PREVIEW_LIMIT);
    expect(result.preview[0]?.key).toBe('student:1');
    expect(result.preview[1]?.key).toBe('family:1');
    expect(result.preview[19]?.key).toBe('family:10');
    // A name containing the query twice counts once.
    expect(search(buildRecipientIndex(many), 'students', 'e').total).toBe(90);
  });

  it('filters by audience on the students tab and by cargo on the staff tab', () => {
    expect(keys(search(index, 'students', 'nunez', { audience: 'estudiantes', cargoId: null }))).toEqual(['student:101']);
    expect(keys(search(index, 'students', 'nunez', { audience: 'apoderados', cargoId: null }))).toEqual(['family:101', 'guardian:502:101']);
    expect(keys(search(index, 'students', 'rojas', { audience: 'suplentes', cargoId: null }))).toEqual(['family:100', 'guardian:501:100']);
    // 4 groups, 2 families, 2 titulares.
    expect(search(index, 'students', '', { audience: 'titulares', cargoId: null }).total).toBe(4 + 2 + 2);
    expect(keys(search(index, 'staff', '', { audience: null, cargoId: 8 }))).toEqual(['appointment:8', 'staff:901']);
  });

  it('describes rows: guardian device status and student, empty courses flagged', () => {
    const [row] = search(index, 'students', 'ana rojas').preview;
    expect(row).toMatchObject({ kind: 'guardian', id: 501, roleId: 2, deviceStatus: 'red', detail: 'Sofía Muñoz Rojas' });
    const courses = search(index, 'students', '3° basico').preview;
    expect(courses.map((item) => [item.key, item.empty])).toEqual([
      ['level:1', false],
      ['course:10', false],
      ['course:11', true],
    ]);
  });

  it('adds recipient lists page by page', () => {
    const listed = withLists(index, [
      { id: 1, name: 'Centro de Padres', users_count: 12 },
      { id: 2, name: 'Directiva Ñuñoa', users_count: 5 },
    ]);
    expect(keys(search(listed, 'lists', 'NUNOA'))).toEqual(['recipient-list:2']);
    expect(labelOf(listed, { kind: 'recipient-list', id: 1 })).toBe('Centro de Padres');
  });

  it('makes picks and counts distinct people', () => {
    const course = search(index, 'students', '3° basico a').preview[0];
    expect(course && pickOf(course, null)).toEqual({ kind: 'course', id: 10, audience: 'apoderados', label: '3° Básico A' });
    expect(course && pickOf(course, 'titulares')).toMatchObject({ audience: 'titulares' });
    expect(pickKey({ kind: 'course', id: 10, audience: 'titulares' })).not.toBe(pickKey({ kind: 'course', id: 10, audience: 'suplentes' }));
    expect(countPeople(index, [{ kind: 'course', id: 10, audience: 'apoderados' }])).toBe(3);
    expect(countPeople(index, [{ kind: 'level', id: 1, audience: 'titulares' }])).toBe(2);
    // The guardian picked twice (course + person) is one person.
    expect(
      countPeople(index, [
        { kind: 'course', id: 10, audience: 'titulares' },
        { kind: 'guardian', id: 500 },
      ]),
    ).toBe(2);
    expect(
      countPeople(index, [
        { kind: 'student', id: 100, audience: 'apoderados' },
        { kind: 'elective', id: 20, audience: 'estudiantes' },
      ]),
    ).toBe(3);
    expect(
      countPeople(index, [
        { kind: 'appointment', id: 7 },
        { kind: 'staff', id: 900 },
        { kind: 'staff', id: 901 },
      ]),
    ).toBe(2);
    expect(countPeople(withLists(index, [{ id: 1, name: 'L', users_count: 12 }]), [{ kind: 'recipient-list', id: 1 }])).toBe(12);
    expect(
      emptyGroups(index, [
        { kind: 'course', id: 11, audience: 'apoderados' },
        { kind: 'course', id: 10, audience: 'apoderados' },
      ]),
    ).toEqual([{ kind: 'course', id: 11, audience: 'apoderados' }]);
  });

  it('tells a course from an elective with the same id (their ids are separate sequences)', () => {
    // Elective 10 has Tomás alone; course 10 is 3° Básico A (2 students, 3 guardians), elective 11 Sofía.
    const same = buildRecipientIndex(
      thirdGrade({
        electives: [
          recipientCourse(
            10,
            'Electivo de Teatro',
            null,
            [{ id: 101, name: 'Tomás Núñez Díaz' }],
            [recipientGuardian(502, 101, 'Raúl Núñez Vera', 1, 'blue')],
          ),
          recipientCourse(11, 'Electivo de Coro', null, [{ id: 100, name: 'Sofía Muñoz Rojas' }]),
        ],
      }),
    );
    expect(countPeople(same, [{ kind: 'course', id: 10, audience: 'apoderados' }])).toBe(3);
    expect(countPeople(same, [{ kind: 'course', id: 10, audience: 'estudiantes' }])).toBe(2);
    expect(countPeople(same, [{ kind: 'elective', id: 10, audience: 'apoderados' }])).toBe(1);
    expect(countPeople(same, [{ kind: 'level', id: 1, audience: 'apoderados' }])).toBe(3);
    // Course 11 has no students (the elective 11 does): flagged, the elective not.
    const course11 = { kind: 'course', id: 11, audience: 'apoderados' } as const;
    const elective11 = { kind: 'elective', id: 11, audience: 'apoderados' } as const;
    expect(emptyGroups(same, [course11, elective11])).toEqual([course11]);
    expect(search(same, 'students', 'electivo de coro').preview.map((item) => [item.key, item.empty])).toEqual([['elective:11', false]]);
  });

  it("offers a student's family (titular and suplente) as one pick when the student's name is searched", () => {
    // «Todos»: the student and, next to her, her family; then guardians whose own name matches.
    expect(keys(search(index, 'students', 'sofia'))).toEqual(['student:100', 'family:100']);
    const apoderados = { audience: 'apoderados', cargoId: null } as const;
    expect(keys(search(index, 'students', 'sofia', apoderados))).toEqual(['family:100']);
    expect(keys(search(index, 'students', 'sofia', { audience: 'estudiantes', cargoId: null }))).toEqual(['student:100']);
    const [family] = search(index, 'students', 'sofia', apoderados).preview;
    expect(family).toMatchObject({ kind: 'family', id: 100, name: 'Sofía Muñoz Rojas', detail: '3° Básico A', size: 2, empty: false });
    // It reaches the student's guardians: the audience chosen, guardians under «Todos».
    const pick = pickOf(family!, 'apoderados');
    expect(pick).toMatchObject({ kind: 'student', id: 100, audience: 'apoderados' });
    expect(pickOf(family!, null)).toMatchObject({ kind: 'student', id: 100, audience: 'apoderados' });
    expect(pickOf(family!, 'suplentes')).toMatchObject({ kind: 'student', id: 100, audience: 'suplentes' });
    expect(countPeople(index, [pick])).toBe(2);
    expect(countPeople(index, [pickOf(family!, 'titulares')])).toBe(1);
    // The chip names the student with the course (two Sofías in two courses are told apart).
    expect(labelOf(index, pick)).toBe('Sofía Muñoz Rojas (3° Básico A)');
    expect(labelOf(index, { kind: 'student', id: 100, audience: 'estudiantes' })).toBe('Sofía Muñoz Rojas (3° Básico A)');
    // A student with no guardian on record is flagged: picking her family reaches nobody.
    const orphan = buildRecipientIndex({
      ...RECIPIENTS,
      courses: [recipientCourse(30, '4° Básico A', null, [{ id: 300, name: 'Inés Soto' }])],
    });
    expect(search(orphan, 'students', 'ines', apoderados).preview[0]).toMatchObject({ kind: 'family', size: 0, empty: true });
  });
});

describe('recipient search ranking', () => {
  /** Index order puts the partial matches first, as a school's list of levels and courses does. */
  const courses = (...names: string[]): Recipients => ({
    levels: [],
    appointments: [],
    courses: names.map((name, position) => recipientCourse(position + 1, name, 1)),
  });

  it('lists the exact match first, then whole words, then word starts, then other substrings', () => {
    const index = buildRecipientIndex(courses('Pre-kínder A', 'Kínder Azul', 'Kínder A Tarde', 'Kínder A'));
    const names = search(index, 'students', 'Kínder A').preview.map((item) => item.name);
    expect(names).toEqual(['Kínder A', 'Kínder A Tarde', 'Kínder Azul', 'Pre-kínder A']);
    // The SPEC's rule stays: every substring match is found and counted.
    expect(search(index, 'students', 'Kínder A').total).toBe(4);
  });

  it('keeps the index order within a rank', () => {
    const index = buildRecipientIndex(courses('Taller B', 'Pre-kínder B', 'Kínder B', 'Pre-kínder A', 'Kínder A'));
    expect(search(index, 'students', 'kinder').preview.map((item) => item.name)).toEqual([
      'Kínder B',
      'Kínder A',
      'Pre-kínder B',
      'Pre-kínder A',
    ]);
  });

  it('ranks within the 20 previewed, over every match', () => {
    const many = courses(...Array.from({ length: 30 }, (_, n) => `Pre-kínder ${n + 1}`), 'Kínder');
    const result = search(buildRecipientIndex(many), 'students', 'kinder');
    expect(result.total).toBe(31);
    expect(result.preview[0]?.name).toBe('Kínder');
    expect(result.preview).toHaveLength(PREVIEW_LIMIT);
  });
});

describe('recipient search by words', () => {
  const people = (...names: string[]): Recipients => ({
    levels: [],
    appointments: [],
    courses: [
      recipientCourse(
        1,
        'Curso',
        1,
        names.map((name, position) => ({ id: position + 1, name })),
      ),
    ],
  });
  const students = (index: ReturnType<typeof buildRecipientIndex>, query: string) =>
    search(index, 'students', query, { audience: 'estudiantes', cargoId: null }).preview.map((item) => item.name);

  it('matches the words of the query in any order, each by the start of a word of the name', () => {
    const index = buildRecipientIndex(
      people('Renata Isidora Romero Díaz', 'Óscar Núñez Núñez', 'María José Pérez', 'Paula Andrea Contreras Bravo', 'Romina Reyes'),
    );
    expect(students(index, 'renata romero')).toEqual(['Renata Isidora Romero Díaz']);
    expect(students(index, 'Núñez Óscar')).toEqual(['Óscar Núñez Núñez']);
    expect(students(index, 'maría  josé')).toEqual(['María José Pérez']);
    expect(students(index, ' Paula Contreras Bravo ')).toEqual(['Paula Andrea Contreras Bravo']);
    expect(students(index, 'ROM re')).toEqual(['Renata Isidora Romero Díaz', 'Romina Reyes']);
    // Every word must match: a name missing one is not found.
    expect(students(index, 'renata bravo')).toEqual([]);
  });

  it('ranks whole words before word starts, and a substring of the whole query still counts, last', () => {
    const index = buildRecipientIndex(people('Mariana Soto', 'Anabel Ríos', 'Soto Ana', 'Ana María Soto'));
    expect(students(index, 'ana soto')).toEqual(['Soto Ana', 'Ana María Soto', 'Mariana Soto']);
    expect(students(index, 'ana')).toEqual(['Soto Ana', 'Ana María Soto', 'Anabel Ríos', 'Mariana Soto']);
  });
});

describe('recipient search by course names as staff write them', () => {
  const index = buildRecipientIndex({
    levels: [],
    appointments: [],
    courses: ['I Medio A', 'III Medio A', '3° Básico A', '3° Básico B', '1° de Secundaria A'].map((name, position) =>
      recipientCourse(position + 1, name, 1),
    ),
  });
  const names = (query: string) => search(index, 'students', query).preview.map((item) => item.name);

  it('takes the ° as optional, and a number and its letter with or without a space', () => {
    expect(names('3 basico a')).toEqual(['3° Básico A']);
    // "b" also starts "Básico": 3° Básico A matches too, after the course whose letter is B.
    for (const query of ['3°B', '3° b', '3b', '3ºB']) expect(names(query)).toEqual(['3° Básico B', '3° Básico A']);
  });

  it('reads ordinal words and Roman numerals as the course number', () => {
    expect(names('tercero básico a')).toEqual(['3° Básico A']);
    expect(names('3 medio a')).toEqual(['III Medio A']);
    expect(names('tercero medio')).toEqual(['III Medio A']);
    expect(names('iii medio')).toEqual(['III Medio A']);
    expect(names('primero de secundaria')).toEqual(['1° de Secundaria A']);
    // The exact name first: "I Medio A" before "III Medio A" (which starts with "i" too).
    expect(names('i medio a')).toEqual(['I Medio A', 'III Medio A']);
  });
});

describe('recipient search by course numbers with an ordinal ending', () => {
  const index = buildRecipientIndex({
    levels: [],
    appointments: [],
    courses: ['I Medio B', 'III Medio A', '3° Básico A', '4° Básico B', '1° de Secundaria A', '7° Básico A', '8° Básico A'].map(
      (name, position) => recipientCourse(position + 1, name, 1),
    ),
  });
  const names = (query: string) => search(index, 'students', query).preview.map((item) => item.name);

  it('reads "3ro", "1ra", "2do", "4to", "1er", "7mo", "8vo" as the number', () => {
    expect(names('3ro basico a')).toEqual(['3° Básico A']);
    expect(names('3RO BÁSICO A')).toEqual(['3° Básico A']);
    expect(names('1ro medio b')).toEqual(['I Medio B']);
    expect(names('3ro medio')).toEqual(['III Medio A']);
    expect(names('4to basico b')).toEqual(['4° Básico B']);
    expect(names('1ra de secundaria')).toEqual(['1° de Secundaria A']);
    expect(names('1er de secundaria')).toEqual(['1° de Secundaria A']);
    expect(names('7mo basico')).toEqual(['7° Básico A']);
    expect(names('8vo')).toEqual(['8° Básico A']);
  });

  it('is still the exact name when only the ordinal ending differs', () => {
    expect(search(index, 'students', '3ro básico a').preview.map((item) => item.name)).toEqual(['3° Básico A']);
    // A course letter right after the number is still the letter ("3b"), not an ending.
    expect(names('4b')).toEqual(['4° Básico B']);
  });
});

describe('people with the same name told apart', () => {
  // Two Maximilianos of one school: what a teacher searching "Maximiliano Pizarro" must tell apart.
  const index = buildRecipientIndex({
    levels: [],
    appointments: [],
    courses: [
      recipientCourse(
        9,
        '3° Básico A',
        1,
        [{ id: 251, name: 'Maximiliano Ramón Pizarro Contreras' }],
        [recipientGuardian(600, 251, 'Carla Contreras Soto', 1, 'blue'), recipientGuardian(601, 251, 'Raúl Pizarro Vega', 2, 'red')],
      ),
      recipientCourse(
        25,
        'III Medio A',
        2,
        [{ id: 707, name: 'Maximiliano Pizarro Carrasco' }],
        [recipientGuardian(700, 707, 'Lorena Carrasco Díaz', 1, 'blue')],
      ),
    ],
  });

  it('finds both students and both families, each with its course', () => {
    const found = search(index, 'students', 'Maximiliano Pizarro').preview.map((item) => [item.key, item.detail]);
    expect(found).toEqual([
      ['student:251', '3° Básico A'],
      ['family:251', '3° Básico A'],
      ['student:707', 'III Medio A'],
      ['family:707', 'III Medio A'],
    ]);
  });

  it("names a guardian row's child and the child's course", () => {
    expect(search(index, 'students', 'raul pizarro').preview[0]).toMatchObject({
      kind: 'guardian',
      id: 601,
      detail: 'Maximiliano Ramón Pizarro Contreras',
      course: '3° Básico A',
    });
    expect(search(index, 'students', 'lorena').preview[0]).toMatchObject({
      detail: 'Maximiliano Pizarro Carrasco',
      course: 'III Medio A',
    });
  });

  it('names a picked student with the course on the chip, as a picked family is', () => {
    expect(labelOf(index, { kind: 'student', id: 251, audience: 'estudiantes' })).toBe('Maximiliano Ramón Pizarro Contreras (3° Básico A)');
    expect(labelOf(index, { kind: 'student', id: 707, audience: 'apoderados' })).toBe('Maximiliano Pizarro Carrasco (III Medio A)');
  });
});
