// `cn` as the families' build has it (vite.family.config.ts puts it in place of src/views/lib/utils.ts for
// the shared primitives): clsx alone, without tailwind-merge, whose class table was 8 kB of the app's first
// download (bench (a)). Nothing is merged, so the families' views never hand a primitive a class of the
// same utility as one of its own; where one must win it says so with Tailwind's `!` (`text-lg!`).
import { clsx, type ClassValue } from 'clsx';

export function cn(...inputs: ClassValue[]): string {
  return clsx(inputs);
}
