// What the list screens share: the paged body of the lists and of their trash, a labelled text input with its
// error, and the recipients chosen with the compose picker (its dialog content is compose's own,
// RecipientPickerContent).
import type * as React from 'react';
import { useSelector } from '@xstate/react';
import type { AnyActorRef } from 'xstate';
import type { RecipientPick } from '../../../../shared/compose-contract';
import type { FieldErrors } from '../../../machines/recipient-lists/recipient-lists';
import { pickKey, type PickerActor } from '../../../machines/compose/recipient-picker';
import { selectIsOpen } from '../../../machines/compose/recipient-picker-selectors';
import { useT } from '../../lib/i18n';
import { Button } from '../../ui/button';
import { Dialog, DialogTrigger } from '../../ui/dialog';
import { FieldError } from '../../ui/field';
import { Input } from '../../ui/input';
import { Label } from '../../ui/label';
import { ListBody, ListEmpty, ListEnd, useListPhase } from '../../ui/list-page';
import { ListFailure, ListSkeleton } from '../../ui/list-state';
import { RecipientChip } from '../compose/recipients-field';
import { RecipientPickerContent } from '../compose/recipient-picker';

export type FieldErrorValue = FieldErrors[string];

/** The lists or the trash, paged: the first load, its failure, the empty and no-match states, the rows, "Cargar más". */
export function PagedLists({ list, q, empty, children }: { list: AnyActorRef; q: string; empty: string; children: React.ReactNode }) {
  const t = useT();
  const phase = useListPhase(list, 'states');
  const reload = () => list.send({ type: 'list.reload' });
  return (
    <>
      <ListBody
        phase={phase}
        skeleton={<ListSkeleton label={t('recipientLists.loading')} rows={4} />}
        failure={<ListFailure message={t('recipientLists.loadFailed')} retryLabel={t('recipientLists.retry')} onRetry={reload} />}
        empty={<ListEmpty>{q.trim() ? t('recipientLists.noMatch', { q: q.trim() }) : empty}</ListEmpty>}
      >
        {children}
      </ListBody>
      <ListEnd list={list} staleText={t('recipientLists.staleRows')} retryLabel={t('recipientLists.retry')} moreLabel={t('recipientLists.loadMore')} />
    </>
  );
}

/** An error as text: the client's own (a text key) or the server's Spanish text. */
export function useErrorText(): (error: FieldErrorValue) => string | null {
  const t = useT();
  return (error) => (error ? ('text' in error ? error.text : t(error.key)) : null);
}

export function FieldText({
  id,
  label,
  value,
  error,
  hint,
  onChange,
  ...props
}: {
  id: string;
  label: string;
  value: string;
  error: FieldErrorValue;
  hint?: string;
  onChange: (value: string) => void;
} & Omit<React.ComponentProps<'input'>, 'value' | 'onChange' | 'id'>) {
  const text = useErrorText()(error);
  const describedBy = [hint ? `${id}-hint` : null, text ? `${id}-error` : null].filter(Boolean).join(' ') || undefined;
  return (
    <div data-slot="field" className="flex flex-col gap-1.5">
      <Label htmlFor={id}>{label}</Label>
      <Input id={id} value={value} aria-invalid={text ? true : undefined} aria-describedby={describedBy} onChange={(e) => onChange(e.currentTarget.value)} {...props} />
      {hint && (
        <p id={`${id}-hint`} className="text-xs text-muted-foreground">
          {hint}
        </p>
      )}
      <FieldError id={`${id}-error`}>{text}</FieldError>
    </div>
  );
}

/** The chosen recipients as chips, and the button that opens the picker on them. */
export function PicksField({
  id,
  picker,
  picks,
  error,
  disabled,
  onRemove,
}: {
  id: string;
  picker: PickerActor;
  picks: RecipientPick[];
  error: FieldErrorValue;
  disabled: boolean;
  onRemove: (pick: RecipientPick) => void;
}) {
  const t = useT();
  const open = useSelector(picker, selectIsOpen);
  const text = useErrorText()(error);
  return (
    <div role="group" aria-labelledby={`${id}-label`} data-slot="field" className="flex flex-col gap-2">
      <span id={`${id}-label`} className="text-sm font-medium">
        {t('recipientLists.members')}
      </span>
      {picks.length > 0 ? (
        <ul aria-label={t('recipientLists.members')} className="flex flex-wrap gap-2">
          {picks.map((pick) => (
            <RecipientChip
              key={pickKey(pick)}
              pick={pick}
              empty={false}
              disabled={disabled}
              removeLabel={(label) => t('recipientLists.removePick', { label })}
              onRemove={() => onRemove(pick)}
            />
          ))}
        </ul>
      ) : (
        <p className="text-sm text-muted-foreground">{t('recipientLists.noPicks')}</p>
      )}
      <Dialog open={open} onOpenChange={(next) => picker.send({ type: next ? 'picker.open' : 'picker.cancel' })}>
        <DialogTrigger asChild>
          <Button id={id} type="button" variant="outline" className="self-start" disabled={disabled} aria-invalid={text ? true : undefined} aria-describedby={text ? `${id}-error` : undefined}>
            {t(picks.length > 0 ? 'recipientLists.editPicks' : 'recipientLists.pickMembers')}
          </Button>
        </DialogTrigger>
        <RecipientPickerContent picker={picker} />
      </Dialog>
      <FieldError id={`${id}-error`}>{text}</FieldError>
    </div>
  );
}
