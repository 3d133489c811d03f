// Accent- and case-folding shared by the stored search columns, the `q` filter and the recipient picker,
// so "Reunión" is found by "reunion" and "Ñuñoa" by "nunoa".
export function fold(text: string): string {
  return text
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .toLowerCase();
}
