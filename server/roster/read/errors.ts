/** A file the reader cannot take as a whole: unreadable, empty, too big, too many rows, no header, a wrong mapping. `message` is Spanish, for `errors.file`. */
export class RosterFileError extends Error {
  override name = 'RosterFileError';
}
