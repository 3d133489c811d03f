// What the roster screen checks before anything leaves the browser: the file's type by its name and its
// size (the server says the same in `errors.file`; asking first spares a 10 MB upload refused at the end).
import { ROSTER_FILE_MAX_BYTES, ROSTER_FILE_TYPES, type RosterFileType } from '../../../shared/roster-contract';

export type FileRefusal = 'type' | 'size' | 'empty';

const typeOf = (name: string): RosterFileType | undefined => {
  // A name without a dot has no extension (a file named "csv" is not a CSV).
  const dot = name.lastIndexOf('.');
  const extension = dot < 0 ? '' : name.slice(dot + 1).toLowerCase();
  return ROSTER_FILE_TYPES.find((type) => type === extension);
};

/** Why a file is refused before sending it, or null when it may go. */
export function fileRefusal(file: { name: string; size: number }): FileRefusal | null {
  if (typeOf(file.name) === undefined) return 'type';
  if (file.size === 0) return 'empty';
  if (file.size > ROSTER_FILE_MAX_BYTES) return 'size';
  return null;
}

/** The file input's `accept`: the two types by extension and media type. */
export const ROSTER_ACCEPT = '.csv,.xlsx,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
