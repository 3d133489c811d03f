// Accent- and case-folding shared by the stored search columns and the `q` filter, so "reunion" finds
// "Reunión" and "nunoa" finds "Ñuñoa".
export function fold(text: string): string {
  return text.normalize('NFD').replace(/\p{Diacritic}/gu, '').toLowerCase();
}
