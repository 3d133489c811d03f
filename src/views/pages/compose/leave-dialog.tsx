import { useRef } from 'react';
import { selectIsAskingToLeave, selectIsSavingToLeave } from '../../../machines/compose/selectors';
import { useT } from '../../lib/i18n';
import { useSelectors } from '../../lib/selectors';
import { Button } from '../../ui/button';
import { focusOnOpen, QuestionDialog } from '../../ui/dialog';
import type { ComposeActor } from './field';

/**
 * "¿Guardar los cambios antes de salir?": shown while compose holds a navigation (a link, Back) because
 * the form has unsaved changes. Escape, a click outside and "Seguir editando" all stay; focus starts on
 * "Guardar borrador" and goes back where it was when the question closes.
 */
export function LeaveDialog({ compose }: { compose: ComposeActor }) {
  const t = useT();
  const { asking, saving } = useSelectors(compose, { asking: selectIsAskingToLeave, saving: selectIsSavingToLeave });
  const save = useRef<HTMLButtonElement>(null);
  const stay = () => compose.send({ type: 'compose.stay' });
  return (
    <QuestionDialog
      open={asking}
      onDismiss={stay}
      title={t('compose.leave.title')}
      description={t('compose.leave.body')}
      aria-busy={saving}
      onOpenAutoFocus={focusOnOpen(save)}
    >
      <Button type="button" variant="ghost" disabled={saving} onClick={stay}>
        {t('compose.leave.stay')}
      </Button>
      <Button type="button" variant="outline" disabled={saving} onClick={() => compose.send({ type: 'compose.discard' })}>
        {t('compose.leave.discard')}
      </Button>
      <Button ref={save} type="button" disabled={saving} onClick={() => compose.send({ type: 'compose.saveAndLeave' })}>
        {t(saving ? 'compose.leave.saving' : 'compose.leave.save')}
      </Button>
    </QuestionDialog>
  );
}
