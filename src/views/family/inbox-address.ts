// The inbox's address: `/` for every child, `/?hijo=<id>` for one. A message opened from one child's inbox
// carries it too, so «Volver» returns there.

/** The child of a search string (`?hijo=12`), or null. */
export function childOf(search: string): number | null {
  const raw = new URLSearchParams(search).get('hijo') ?? '';
  return /^[1-9]\d{0,15}$/.test(raw) ? Number(raw) : null;
}

const withChild = (path: string, student: number | null) => (student === null ? path : `${path}?hijo=${student}`);

export const inboxHref = (student: number | null): string => withChild('/', student);
export const messageHref = (id: number, student: number | null): string => withChild(`/mensajes/${id}`, student);
