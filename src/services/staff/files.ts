// A file the user chose, read as text: a CSV of staff saved by Excel in Spanish is often Windows-1252, not
// UTF-8, so bytes that are not UTF-8 are read as Windows-1252 (their accents then show right in the preview).
import { fromPromise } from 'xstate';

export const readTextFile = fromPromise<string, { file: File }>(async ({ input }) => {
  const bytes = await input.file.arrayBuffer();
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return new TextDecoder('windows-1252').decode(bytes);
  }
});
