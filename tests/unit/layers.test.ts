// The import direction of the house (README "Layout"): views → machines → services → shared, and the
// server → shared. Read from the sources, so a stray import fails here before it becomes a habit.
// The linter enforces the same rules at edit time (`noRestrictedImports` per layer and `noImportCycles` in
// biome.json, run by `npm run lint`); this test stays because it resolves every path exactly and checks
// that the server's domains import one another without a circle, domain by domain.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(__dirname, '../..');

function sources(dir: string): string[] {
  return readdirSync(join(ROOT, dir)).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(join(ROOT, path)).isDirectory()) return name === 'migrations' ? [] : sources(path);
    return /\.(ts|tsx)$/.test(name) ? [path] : [];
  });
}

/** Every import of a file as a repository path (relative specifiers) or a package name. */
function importsOf(file: string): string[] {
  const text = readFileSync(join(ROOT, file), 'utf8');
  const specs = [...text.matchAll(/(?:from\s+|import\s*\(\s*|import\s+)['"]([^'"]+)['"]/g)].map((m) => m[1] as string);
  return specs.map((spec) => (spec.startsWith('.') ? relative(ROOT, resolve(ROOT, dirname(file), spec)) : spec));
}

/** `file → import` pairs that break `allowed`. */
function offending(dir: string, allowed: (target: string) => boolean): string[] {
  return sources(dir).flatMap((file) =>
    importsOf(file)
      .filter((target) => !allowed(target))
      .map((target) => `${file} → ${target}`),
  );
}

const inside =
  (...dirs: string[]) =>
  (target: string) =>
    dirs.some((dir) => target === dir || target.startsWith(`${dir}/`));

describe('import direction', () => {
  it('shared imports nothing of the SPA, the server or a UI library', () => {
    // Only the libraries both sides validate and format with: superstruct, libphonenumber-js and the
    // password estimator (zxcvbn-ts with its dictionaries).
    const library = (t: string) =>
      t === 'superstruct' || t === 'libphonenumber-js' || t.startsWith('libphonenumber-js/') || t.startsWith('@zxcvbn-ts/');
    expect(offending('shared', (t) => inside('shared')(t) || library(t))).toEqual([]);
  });

  it('the server imports nothing of the SPA', () => {
    expect(offending('server', (t) => !inside('src')(t))).toEqual([]);
  });

  it('services import neither machines nor views', () => {
    expect(offending('src/services', (t) => !inside('src/machines', 'src/views')(t))).toEqual([]);
  });

  it('machines import no views and no React', () => {
    expect(offending('src/machines', (t) => !inside('src/views')(t) && !/^react($|-dom|\/)|^@xstate\/react/.test(t))).toEqual([]);
  });

  it("the families' app imports none of the staff's screens, machines or services, nor they the families'", () => {
    // Its own download (vite.family.config.ts): the staff's code would come with it. The shadcn-style
    // primitives and `cn` are shared; the contract and rules in shared/ too.
    const family = ['src/views/family', 'src/machines/family', 'src/services/family', 'src/i18n/family'];
    const ownFiles = [...family, 'src/family-main.tsx', 'src/i18n/family.ts', 'src/family.css', 'src/theme.css'];
    const sharedUi = (t: string) => inside('src/views/ui')(t) || t === 'src/views/lib/utils';
    const familyMayImport = (t: string) => !inside('src')(t) || inside(...ownFiles)(t) || sharedUi(t);
    const familySources = [...family.flatMap((dir) => offending(dir, familyMayImport))];
    const entry = importsOf('src/family-main.tsx').filter((t) => !familyMayImport(t));
    const i18n = importsOf('src/i18n/family.ts').filter((t) => !familyMayImport(t));
    expect([...familySources, ...entry, ...i18n]).toEqual([]);
    const staffDirs = ['src/views', 'src/machines', 'src/services'];
    const staffOffending = staffDirs
      .flatMap((dir) => offending(dir, (t) => !inside(...ownFiles)(t)))
      .filter((edge) => !family.some((d) => edge.startsWith(`${d}/`)));
    expect(staffOffending).toEqual([]);
  });

  it('nothing the app ships imports a test', () => {
    expect([...offending('src', (t) => !inside('tests')(t)), ...offending('server', (t) => !inside('tests')(t))]).toEqual([]);
  });
});

/**
 * The server's domains: each folder under server/ (compose, delivery, db, http, …) is one, and each file at
 * the top (app.ts, config.ts, …) is one of its own. `import type` counts: a type is still something one
 * domain must know of the other, and a circle through types becomes a circle of values as soon as a helper
 * is moved across it.
 */
function serverDomainOf(path: string): string | null {
  const parts = path.split('/');
  if (parts[0] !== 'server' || parts.length < 2) return null;
  return parts.length === 2 ? parts[1]!.replace(/\.tsx?$/, '') : parts[1]!;
}

/** Domain → domain → the file imports behind that edge. */
function serverDomainGraph(): Map<string, Map<string, string[]>> {
  const graph = new Map<string, Map<string, string[]>>();
  for (const file of sources('server')) {
    const from = serverDomainOf(file)!;
    for (const target of importsOf(file)) {
      const to = serverDomainOf(target);
      if (to === null || to === from) continue;
      const edges = graph.get(from) ?? new Map<string, string[]>();
      graph.set(from, edges);
      edges.set(to, [...(edges.get(to) ?? []), `${file} → ${target}`]);
    }
  }
  return graph;
}

/** One circle per strongly connected group of domains (Tarjan), spelt out with the imports that close it. */
function domainCycles(graph: Map<string, Map<string, string[]>>): string[] {
  const next = (node: string) => [...(graph.get(node)?.keys() ?? [])].sort();
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const groups: string[][] = [];
  const visit = (node: string) => {
    index.set(node, index.size);
    low.set(node, index.get(node)!);
    stack.push(node);
    for (const to of next(node)) {
      if (!index.has(to)) {
        visit(to);
        low.set(node, Math.min(low.get(node)!, low.get(to)!));
      } else if (stack.includes(to)) low.set(node, Math.min(low.get(node)!, index.get(to)!));
    }
    if (low.get(node) === index.get(node)) {
      const group: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        group.push(member);
      } while (member !== node);
      if (group.length > 1) groups.push(group.sort());
    }
  };
  for (const node of [...graph.keys()].sort()) if (!index.has(node)) visit(node);
  return groups.map((group) => {
    // The shortest way back to the group's first domain, staying inside the group.
    const start = group[0]!;
    const previous = new Map<string, string>();
    const queue = [start];
    while (queue.length > 0) {
      const node = queue.shift()!;
      for (const to of next(node).filter((n) => group.includes(n))) {
        if (previous.has(to)) continue;
        previous.set(to, node);
        queue.push(to);
      }
    }
    const path = [start];
    for (let node = previous.get(start)!; node !== start; node = previous.get(node)!) path.unshift(node);
    path.unshift(start);
    const imports = path.slice(1).map((to, i) => graph.get(path[i]!)!.get(to)![0]);
    return `${path.join(' → ')} (${imports.join('; ')}; whole group: ${group.join(', ')})`;
  });
}

describe('server domains', () => {
  it('import one another without a circle', () => {
    expect(domainCycles(serverDomainGraph())).toEqual([]);
  });

  it('the check finds a circle when there is one', () => {
    const graph = new Map([
      ['compose', new Map([['delivery', ['server/compose/a.ts → server/delivery/b']]])],
      [
        'delivery',
        new Map([
          ['db', ['server/delivery/b.ts → server/db/c']],
          ['compose', ['server/delivery/b.ts → server/compose/a']],
        ]),
      ],
    ]);
    expect(domainCycles(graph)).toEqual([
      'compose → delivery → compose (server/compose/a.ts → server/delivery/b; server/delivery/b.ts → server/compose/a; whole group: compose, delivery)',
    ]);
  });
});
