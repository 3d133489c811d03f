// The import direction of the house (README "Layout"): views → machines → services → shared, and the
// server → shared. Read from the sources, so a stray import fails here before it becomes a habit.
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
  return sources(dir).flatMap((file) => importsOf(file).filter((target) => !allowed(target)).map((target) => `${file} → ${target}`));
}

const inside = (...dirs: string[]) => (target: string) => dirs.some((dir) => target === dir || target.startsWith(`${dir}/`));

describe('import direction', () => {
  it('shared imports nothing of the SPA, the server or a UI library', () => {
    expect(offending('shared', (t) => inside('shared')(t) || t === 'superstruct')).toEqual([]);
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

  it('nothing the app ships imports a test', () => {
    expect([...offending('src', (t) => !inside('tests')(t)), ...offending('server', (t) => !inside('tests')(t))]).toEqual([]);
  });
});
