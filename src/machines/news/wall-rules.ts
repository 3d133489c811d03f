// The wall's address (/mural and /mural/news): the search and the category live in the query
// (`?q=…&category=…`) so a reload or a shared link opens the same view; the defaults are left out, and any
// other parameter the page came with (`newsfeed`, SPEC §2) is kept where it was.

export interface WallAddress {
  q: string;
  /** A category's id; null: every category. */
  category: number | null;
}

const params = (search: string): URLSearchParams => new URLSearchParams(search.startsWith('?') ? search.slice(1) : search);

/** What `?q=…&category=…` asks; a category that is not a positive whole number reads as every category. */
export function wallAddressOf(search: string): WallAddress {
  const read = params(search);
  const category = read.get('category');
  return { q: read.get('q') ?? '', category: category !== null && /^[1-9]\d{0,11}$/.test(category) ? Number(category) : null };
}

/** The address of `path` showing `view`: the parameters of `search` other than q and category, then those. */
export function wallAddress(path: string, search: string, view: WallAddress): string {
  const write = params(search);
  write.delete('q');
  write.delete('category');
  if (view.q !== '') write.set('q', view.q);
  if (view.category !== null) write.set('category', String(view.category));
  const query = write.toString();
  return query ? `${path}?${query}` : path;
}

export const sameWallAddress = (a: WallAddress, b: WallAddress): boolean => a.q === b.q && a.category === b.category;
