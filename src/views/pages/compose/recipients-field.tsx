import type * as React from 'react';
import { useSelector } from '@xstate/react';
import type { RecipientPick } from '../../../../shared/compose-contract';
import { FIELD_IDS } from '../../../machines/compose/rules';
import { selectIsLocked, selectPicker, selectRecipients } from '../../../machines/compose/selectors';
import { pickKey, type PickerActor } from '../../../machines/compose/recipient-picker';
import {
  selectEmptyPickKeys,
  selectIsOpen,
  selectPeopleCount,
  selectPeopleExact,
} from '../../../machines/compose/recipient-picker-selectors';
import { useT, type Translate } from '../../lib/i18n';
import { useSelectors } from '../../lib/selectors';
import { Badge } from '../../ui/badge';
import { Button } from '../../ui/button';
import { Dialog, DialogTrigger } from '../../ui/dialog';
import { errorProps, FieldError } from '../../ui/field';
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
  const { picks, locked } = useSelectors(compose, { picks: selectRecipients, locked: selectIsLocked });
  const error = useFieldError(compose, 'recipients');
  // The picker's picks follow the chips (confirm, cancel and remove keep them equal), so its head count
  // is the chips' one: the server's estimate once it has counted them, the picker's approximation before.
  const { emptyKeys, people, exact } = useSelectors(picker, {
    emptyKeys: selectEmptyPickKeys,
    people: selectPeopleCount,
    exact: selectPeopleExact,
  });
  const empty = new Set(emptyKeys.split(',').filter(Boolean));

  return (
    <PicksGroup
      id={FIELD_IDS.recipients}
      label={t('compose.field.recipients')}
      none={t('compose.field.noRecipients')}
      action={t(picks.length > 0 ? 'compose.field.editRecipients' : 'compose.field.addRecipients')}
      picker={picker}
      picks={picks}
      empty={empty}
      disabled={locked}
      error={error.text}
      onRemove={(pick) => compose.send({ type: 'compose.removeRecipient', pick })}
    >
      {picks.length > 0 && (people > 0 || exact) && (
        <p data-slot="recipients-people" className="text-xs text-muted-foreground">
          {t(exact ? 'compose.picker.selectedExact' : 'compose.picker.selected', { count: people })}
        </p>
      )}
    </PicksGroup>
  );
}

/**
 * The chosen recipients as a labelled group (compose, the recipient-list forms): the chips, what `children`
 * says of them, the button that opens the picker on them (`id`, where an error sends the focus) and the
 * error, under `${id}-error`.
 */
export function PicksGroup({
  id,
  label,
  none,
  action,
  picker,
  picks,
  empty,
  disabled,
  error,
  removeLabel,
  onRemove,
  children,
}: {
  id: string;
  label: string;
  none: string;
  /** The picker button's text. */
  action: string;
  picker: PickerActor;
  picks: readonly RecipientPick[];
  empty?: ReadonlySet<string>;
  disabled: boolean;
  error: string | null;
  removeLabel?: (label: string) => string;
  onRemove: (pick: RecipientPick) => void;
  children?: React.ReactNode;
}) {
  return (
    <div role="group" aria-labelledby={`${id}-label`} data-slot="field" className="flex flex-col gap-2">
      <Label id={`${id}-label`} asChild>
        <span>{label}</span>
      </Label>
      <RecipientChips
        picks={picks}
        label={label}
        none={none}
        empty={empty}
        disabled={disabled}
        removeLabel={removeLabel}
        onRemove={onRemove}
      />
      {children}
      <PickerButton picker={picker} id={id} disabled={disabled} {...errorProps(error, `${id}-error`)}>
        {action}
      </PickerButton>
      <FieldError id={`${id}-error`}>{error}</FieldError>
    </div>
  );
}

/** The picks as chips, or that there are none yet (compose, and the recipient-list forms). */
function RecipientChips({
  picks,
  label,
  none,
  empty,
  disabled,
  onRemove,
  removeLabel,
}: {
  picks: readonly RecipientPick[];
  label: string;
  none: string;
  /** The picks that would reach nobody (a course with no guardians), marked as such. */
  empty?: ReadonlySet<string>;
  disabled: boolean;
  onRemove: (pick: RecipientPick) => void;
  removeLabel?: (label: string) => string;
}) {
  if (picks.length === 0) return <p className="text-sm text-muted-foreground">{none}</p>;
  return (
    <ul aria-label={label} className="flex flex-wrap gap-2">
      {picks.map((pick) => (
        <RecipientChip
          key={pickKey(pick)}
          pick={pick}
          empty={empty?.has(pickKey(pick)) ?? false}
          disabled={disabled}
          removeLabel={removeLabel}
          onRemove={() => onRemove(pick)}
        />
      ))}
    </ul>
  );
}

/** The button that opens the recipient picker on the picks, and the picker's dialog. */
function PickerButton({ picker, ...props }: Omit<React.ComponentProps<typeof Button>, 'type'> & { picker: PickerActor }) {
  const open = useSelector(picker, selectIsOpen);
  return (
    <Dialog open={open} onOpenChange={(next) => picker.send({ type: next ? 'picker.open' : 'picker.cancel' })}>
      <DialogTrigger asChild>
        <Button type="button" variant="outline" className="self-start" {...props} />
      </DialogTrigger>
      <RecipientPickerContent picker={picker} />
    </Dialog>
  );
}

/** A picked recipient as a chip with its remove button. */
function RecipientChip({
  pick,
  empty,
  disabled,
  onRemove,
  removeLabel,
}: {
  pick: RecipientPick;
  empty: boolean;
  disabled: boolean;
  onRemove: () => void;
  removeLabel?: (label: string) => string;
}) {
  const t = useT();
  const label = chipLabel(t, pick);
  return (
    <li
      data-slot="recipient-chip"
      data-empty={empty || undefined}
      className="flex items-center gap-1 rounded-full border bg-secondary py-0.5 pr-1 pl-3 text-sm text-secondary-foreground"
    >
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
