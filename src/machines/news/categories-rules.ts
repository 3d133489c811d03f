// The pure rules of /mural/categories (news/categories.ts): moving a category one place, whether a name is
// taken (folded like the server: case and accents ignored), and what a failed call means for a field.
import { fold } from '../../../shared/fold';
import type { NewsCategory } from '../../../shared/news-contract';
import { NEWS_TEXTS } from '../../../shared/news-contract';
import { categoryNameError } from '../../../shared/news-rules';
import { serverMessage, type ApiFailure } from '../../services/http/client';

export type MoveDirection = 'up' | 'down';

/** Whether another category of the school (not `except`) already folds to `name`. */
const isNameTaken = (categories: readonly NewsCategory[], name: string, except: number | null = null): boolean =>
  categories.some((category) => category.id !== except && fold(category.name.trim()) === fold(name.trim()));

/** The field error of `name` for a new category (`except` null) or a rename of `except`. */
export const nameErrorOf = (categories: readonly NewsCategory[], name: string, except: number | null = null): string | null =>
  categoryNameError(name, isNameTaken(categories, name, except));

/** Whether the category can move one place that way. */
export function canMove(categories: readonly NewsCategory[], id: number, direction: MoveDirection): boolean {
  const index = categories.findIndex((category) => category.id === id);
  if (index < 0) return false;
  return direction === 'up' ? index > 0 : index < categories.length - 1;
}

/** The categories with `id` moved one place, positions renumbered 1…n (what the wall will show). */
export function moved(categories: readonly NewsCategory[], id: number, direction: MoveDirection): NewsCategory[] {
  const list = [...categories];
  const index = list.findIndex((category) => category.id === id);
  const other = direction === 'up' ? index - 1 : index + 1;
  if (index < 0 || other < 0 || other >= list.length) return list;
  [list[index], list[other]] = [list[other] as NewsCategory, list[index] as NewsCategory];
  return list.map((category, i) => ({ ...category, position: i + 1 }));
}

/** The name field's text of a refused create or rename: the server's `errors.name` (422), else null. */
export function nameFailure(failure: ApiFailure): string | null {
  return failure.status === 422 ? (failure.fieldErrors.name?.[0] ?? serverMessage(failure)) : null;
}

/** Why a category cannot be deleted: the server's 409 text, or the count we have. */
export function inUseText(failure: ApiFailure, postCount: number): string | null {
  if (failure.status !== 409) return null;
  return serverMessage(failure) ?? NEWS_TEXTS.categoryInUse(postCount);
}
