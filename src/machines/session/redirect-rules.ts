// In-app redirect targets (SPEC §5): a path that starts with one slash and contains only letters,
// digits and @ - % _ ~ . : /, optionally followed by a query string and a fragment. `//host` and
// backslashes are refused too: browsers read both as another origin.

const SAFE_REDIRECT = /^\/[A-Za-z0-9@\-%_~.:/]*(\?[^#\s]*)?(#\S*)?$/;

export function isSafeRedirect(target: string | null | undefined): target is string {
  if (typeof target !== 'string' || target.length === 0) return false;
  if (target.startsWith('//') || target.includes('\\')) return false;
  return SAFE_REDIRECT.test(target);
}

/** The remembered target when it is safe, otherwise home. */
export function resolveRedirect(target: string | null | undefined, fallback = '/'): string {
  return isSafeRedirect(target) ? target : fallback;
}

/** `/login?redirect=…` for a wanted page; plain `/login` when the wanted page is home anyway. */
export function loginPathFor(wanted: string): string {
  return wanted === '/' || wanted === '' ? '/login' : `/login?redirect=${encodeURIComponent(wanted)}`;
}
