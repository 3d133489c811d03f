import { useSelector } from '@xstate/react';
import type { RecipientPick } from '../../../../shared/compose-contract';
import { FIELD_IDS } from '../../../machines/compose/rules';
import { selectIsLocked, selectPicker, selectRecipients } from '../../../machines/compose/selectors';
import { pickKey, type PickerActor } from '../../../machines/compose/recipient-picker';
import { selectEmptyPickKeys, selectIsOpen, selectPeopleCount, selectPeopleExact } from '../../../machines/compose/recipient-picker-selectors';
import { useT, type Translate } from '../../lib/i18n';
import { Badge } from '../../ui/badge';
import { Button } from '../../ui/button';
import { Dialog, DialogTrigger } from '../../ui/dialog';
import { describedBy, FieldError } from '../../ui/field';
import { Label } from '../../ui/label';
import { useFieldError, type ComposeActor } from './field';
import { pickText, RecipientPickerContent } from './recipient-picker';

/** The chips and the picker dialog (compose spawns the picker with the form, so it is there with it). */
export function RecipientsField({ compose }: { compose: ComposeActor }) {
  const picker = useSelector(compose, selectPicker);
  return picker ? <Recipients compose={compose} picker={picker} /> : null;
}

function Recipients({ compose, picker }: { compose: ComposeActor; picker: PickerActor }) {
  const t = useT();
  const picks = useSelector(compose, selectRecipients);
  const locked = useSelector(compose, selectIsLocked);
  const error = useFieldError(compose, 'recipients');
  const open = useSelector(picker, selectIsOpen);
  const emptyKeys = useSelector(picker, selectEmptyPickKeys);
  // The picker's picks follow the chips (confirm, cancel and remove keep them equal), so its head count
  // is the chips' one: the server's estimate once it has counted them, the picker's approximation before.
  const people = useSelector(picker, selectPeopleCount);
  const exact = useSelector(picker, selectPeopleExact);
  const empty = new Set(emptyKeys.split(',').filter(Boolean));

  return (
    <div role="group" aria-labelledby="compose-recipients-label" data-slot="field" className="flex flex-col gap-2">
      <Label id="compose-recipients-label" asChild>
        <span>{t('compose.field.recipients')}</span>
      </Label>
      {picks.length > 0 ? (
        <ul aria-label={t('compose.field.recipients')} className="flex flex-wrap gap-2">
          {picks.map((pick) => (
            <RecipientChip
              key={pickKey(pick)}
              pick={pick}
              empty={empty.has(pickKey(pick))}
              disabled={locked}
              onRemove={() => compose.send({ type: 'compose.removeRecipient', pick })}
            />
          ))}
        </ul>
      ) : (
        <p className="text-sm text-muted-foreground">{t('compose.field.noRecipients')}</p>
      )}
      {picks.length > 0 && (people > 0 || exact) && (
        <p data-slot="recipients-people" className="text-xs text-muted-foreground">
          {t(exact ? 'compose.picker.selectedExact' : 'compose.picker.selected', { count: people })}
        </p>
      )}
      <Dialog open={open} onOpenChange={(next) => picker.send({ type: next ? 'picker.open' : 'picker.cancel' })}>
        <DialogTrigger asChild>
          <Button
            id={FIELD_IDS.recipients}
            type="button"
            variant="outline"
            className="self-start"
            disabled={locked}
            aria-invalid={error.text ? true : undefined}
            aria-describedby={describedBy(error.text && error.id)}
          >
            {t(picks.length > 0 ? 'compose.field.editRecipients' : 'compose.field.addRecipients')}
          </Button>
        </DialogTrigger>
        <RecipientPickerContent picker={picker} />
      </Dialog>
      <FieldError id={error.id}>{error.text}</FieldError>
    </div>
  );
}

/** A picked recipient as a chip with its remove button (compose, and the recipient-list form). */
export function RecipientChip({ pick, empty, disabled, onRemove, removeLabel }: { pick: RecipientPick; empty: boolean; disabled: boolean; onRemove: () => void; removeLabel?: (label: string) => string }) {
  const t = useT();
  const label = chipLabel(t, pick);
  return (
    <li data-slot="recipient-chip" data-empty={empty || undefined} className="flex items-center gap-1 rounded-full border bg-secondary py-0.5 pr-1 pl-3 text-sm text-secondary-foreground">
      <span>{label}</span>
      {empty && <Badge variant="warning">{t('compose.emptyCourse')}</Badge>}
      <button
        type="button"
        disabled={disabled}
        aria-label={removeLabel ? removeLabel(label) : t('compose.field.removeRecipient', { label })}
        onClick={onRemove}
        className="ml-1 inline-flex size-6 items-center justify-center rounded-full outline-none hover:bg-accent focus-visible:ring-[3px] focus-visible:ring-ring/40 disabled:opacity-50"
      >
        <svg aria-hidden viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" className="size-3.5">
          <path d="M18 6 6 18M6 6l12 12" />
        </svg>
      </button>
    </li>
  );
}

/**
 * "3° Básico A · apoderados titulares"; a student's family "Apoderados de Sofía Pérez (3° Básico A)"; a single
 * student or person is just the name.
 */
function chipLabel(t: Translate, pick: RecipientPick): string {
  const name = pick.label ?? `${t(`compose.picker.kind.${pick.kind}`)} ${pick.id}`;
  if ('audience' in pick && pick.kind !== 'student') return `${name} · ${t(`compose.picker.chipAudience.${pick.audience}`)}`;
  return pickText(t, pick, name);
}
