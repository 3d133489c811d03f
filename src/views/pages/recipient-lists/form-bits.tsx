// What the list screens share: the paged body of the lists and of their trash, a labelled text input with its
// error, and the recipients chosen with the compose picker (compose's own group, PicksGroup).
import type * as React from 'react';
import type { AnyActorRef } from 'xstate';
import type { RecipientPick } from '../../../../shared/compose-contract';
import type { FieldErrors } from '../../../machines/recipient-lists/recipient-lists';
import type { PickerActor } from '../../../machines/compose/recipient-picker';
import { useT } from '../../lib/i18n';
import { errorProps, FieldError } from '../../ui/field';
import { Input } from '../../ui/input';
import { Label } from '../../ui/label';
import { ListBody, ListEmpty, ListEnd, ListPage, ListTotal, useListPhase } from '../../ui/list-page';
import { ListFailure, ListSkeleton } from '../../ui/list-state';
import { SearchInput } from '../../ui/search-input';
import { PicksGroup } from '../compose/recipients-field';

export type FieldErrorValue = FieldErrors[string];

/**
 * The lists or their trash: the title with how many there are, the search, then the paged body (the first
 * load, its failure, the empty and no-match states, the rows, "Cargar más"). `list` is null when the list
 * itself crashed (or is not there): its failure then retries with the screen's `onRestart`.
 */
export function PagedListsPage({
  title,
  actions,
  before,
  searchLabel,
  q,
  onSearch,
  list,
  onRestart,
  empty,
  children,
}: {
  title: string;
  actions: React.ReactNode;
  /** Above the search (the new list's form). */
  before?: React.ReactNode;
  searchLabel: string;
  q: string;
  onSearch: (q: string) => void;
  list: AnyActorRef | null | undefined;
  onRestart: () => void;
  empty: string;
  children: React.ReactNode;
}) {
  const t = useT();
  return (
    <ListPage
      title={title}
      below={list && <ListTotal list={list} text={(count) => t('recipientLists.total', { count })} />}
      actions={actions}
    >
      {before}
      <SearchInput aria-label={searchLabel} placeholder={searchLabel} value={q} onSearch={onSearch} />
      {list ? (
        <PagedLists list={list} q={q} empty={empty}>
          {children}
        </PagedLists>
      ) : (
        <ListFailure message={t('recipientLists.loadFailed')} retryLabel={t('recipientLists.retry')} onRetry={onRestart} />
      )}
    </ListPage>
  );
}

function PagedLists({ list, q, empty, children }: { list: AnyActorRef; q: string; empty: string; children: React.ReactNode }) {
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
      <ListEnd
        list={list}
        staleText={t('recipientLists.staleRows')}
        retryLabel={t('recipientLists.retry')}
        moreLabel={t('recipientLists.loadMore')}
      />
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
  return (
    <div data-slot="field" className="flex flex-col gap-1.5">
      <Label htmlFor={id}>{label}</Label>
      <Input
        id={id}
        value={value}
        {...errorProps(text, `${id}-error`, hint && `${id}-hint`)}
        onChange={(e) => onChange(e.currentTarget.value)}
        {...props}
      />
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
  const text = useErrorText()(error);
  return (
    <PicksGroup
      id={id}
      label={t('recipientLists.members')}
      none={t('recipientLists.noPicks')}
      action={t(picks.length > 0 ? 'recipientLists.editPicks' : 'recipientLists.pickMembers')}
      picker={picker}
      picks={picks}
      disabled={disabled}
      error={text}
      removeLabel={(label) => t('recipientLists.removePick', { label })}
      onRemove={onRemove}
    />
  );
}
