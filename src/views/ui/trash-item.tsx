// One row of a trash screen (list/trash.ts: the recipient lists' and the news wall's): its name and who
// deleted it, Restaurar and Eliminar definitivamente, and under it the question before deleting forever.
// Both screens' rows read the same machine the same way; each gives its texts and the markup of its name.
import type * as React from 'react';
import type { AnyActorRef } from 'xstate';
import { selectTrashBusy, selectTrashConfirming, selectTrashTarget, type TrashSnapshot } from '../../machines/list/trash';
import { useSelectors } from '../lib/selectors';
import { ItemButton, ItemCard, ItemConfirm, ItemHead } from './item-card';

// Any screen's trash machine (the selectors read only what every trash has).
type AnyTrash = AnyActorRef;
type AnyTrashSnapshot = TrashSnapshot<{ id: number }, unknown>;

interface TrashItemTexts {
  restore: string;
  purge: string;
  /** «¿Eliminar … para siempre?», naming the row. */
  question: string;
  hint: string;
  cancel: string;
}

export interface TrashItemProps extends Omit<React.ComponentProps<typeof ItemCard>, 'children'> {
  trash: AnyTrash;
  itemId: number;
  /** The row's name as its buttons say it ("Restaurar: 3° A"). */
  label: string;
  name: React.ReactNode;
  detail: React.ReactNode;
  gap?: React.ComponentProps<typeof ItemHead>['gap'];
  purgeId: string;
  texts: TrashItemTexts;
  unavailable?: React.ComponentProps<typeof TrashActions>['unavailable'];
  /** The card says it is busy (`aria-busy`) while its own restore or deletion runs. */
  marksBusy?: boolean;
}

export function TrashItem({
  trash,
  itemId: id,
  label,
  name,
  detail,
  gap,
  purgeId,
  texts,
  unavailable,
  marksBusy = false,
  ...props
}: TrashItemProps) {
  const { target, asking, busy, canRestore, canPurge } = useSelectors(trash, {
    target: selectTrashTarget,
    asking: selectTrashConfirming,
    busy: selectTrashBusy,
    canRestore: (s: AnyTrashSnapshot) => s.can({ type: 'trash.restore', id }),
    canPurge: (s: AnyTrashSnapshot) => s.can({ type: 'trash.purge', id }),
  });
  const confirming = asking && target === id;
  return (
    <ItemCard aria-busy={marksBusy ? (busy && target === id) || undefined : undefined} {...props}>
      <ItemHead
        gap={gap}
        name={name}
        detail={detail}
        actions={
          <TrashActions
            name={label}
            restoreLabel={texts.restore}
            purgeLabel={texts.purge}
            purgeId={purgeId}
            canRestore={canRestore && !busy}
            canPurge={canPurge && !busy}
            unavailable={unavailable}
            onRestore={() => trash.send({ type: 'trash.restore', id })}
            onPurge={() => trash.send({ type: 'trash.purge', id })}
          />
        }
      />
      {confirming && (
        <ItemConfirm
          title={texts.question}
          description={texts.hint}
          confirmLabel={texts.purge}
          cancelLabel={texts.cancel}
          onConfirm={() => trash.send({ type: 'trash.confirm' })}
          onCancel={() => trash.send({ type: 'trash.cancel' })}
        />
      )}
    </ItemCard>
  );
}

/**
 * Restaurar and Eliminar para siempre of a trashed item, each named with the item. While one may not be used
 * it is `disabled`, or with `unavailable="aria-disabled"` stays focusable (the keyboard's place is kept).
 */
function TrashActions({
  name,
  restoreLabel,
  purgeLabel,
  purgeId,
  canRestore,
  canPurge,
  unavailable = 'disabled',
  onRestore,
  onPurge,
}: {
  name: string;
  restoreLabel: string;
  purgeLabel: string;
  purgeId: string;
  canRestore: boolean;
  canPurge: boolean;
  unavailable?: 'disabled' | 'aria-disabled';
  onRestore: () => void;
  onPurge: () => void;
}) {
  const off = (cannot: boolean) => (unavailable === 'disabled' ? { disabled: cannot } : { 'aria-disabled': cannot || undefined });
  return (
    <>
      <ItemButton variant="outline" {...off(!canRestore)} label={restoreLabel} item={name} onClick={onRestore} />
      <ItemButton id={purgeId} variant="destructive" {...off(!canPurge)} label={purgeLabel} item={name} onClick={onPurge} />
    </>
  );
}
