// What the sections of the news compose form share: the actor, and how a field finds its error.
import { useSelector } from '@xstate/react';
import type { NewsComposeActor } from '../../../../machines/news/compose';
import { NEWS_FIELD_IDS, type NewsComposeField, type NewsFieldError } from '../../../../machines/news/compose-rules';
import { selectFieldError } from '../../../../machines/news/compose-selectors';
import { useT } from '../../../lib/i18n';

export type { NewsComposeActor };

const ERROR_SELECTORS = Object.fromEntries(
  (Object.keys(NEWS_FIELD_IDS) as NewsComposeField[]).map((field) => [field, selectFieldError(field)]),
) as Record<NewsComposeField, ReturnType<typeof selectFieldError>>;

/** The field's error text (the shared rules' Spanish, or a translated upload text) and the id it is shown under. */
export function useNewsFieldError(compose: NewsComposeActor, field: NewsComposeField) {
  const t = useT();
  const error: NewsFieldError | null = useSelector(compose, ERROR_SELECTORS[field]);
  const text = error === null ? null : 'text' in error ? error.text : t(error.key, error.params);
  return { text, id: `news-${field}-error`, invalid: text ? true : undefined };
}
