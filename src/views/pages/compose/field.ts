// What the sections of the compose form share: the actor they render, and how a field finds its error.
import { useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import type { ComposeMachine } from '../../../machines/compose/compose';
import type { ComposeField } from '../../../machines/compose/rules';
import { selectError } from '../../../machines/compose/selectors';
import { useT } from '../../lib/i18n';

export type ComposeActor = ActorRefFrom<ComposeMachine>;

/** The field's translated error (null when none) and the id its control points at. */
export function useFieldError(compose: ComposeActor, field: ComposeField) {
  const t = useT();
  const error = useSelector(compose, (s) => selectError(s, field));
  return { text: error ? t(error.key, error.params) : null, id: `compose-${field}-error` };
}
