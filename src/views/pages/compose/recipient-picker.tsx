import { useId } from 'react';
import { useSelector } from '@xstate/react';
import {
  isFamilyPick,
  pickOf,
  type IndexItem,
  type PickerActor,
  type PickerTab,
  type RecipientListsActor,
} from '../../../machines/compose/recipient-picker';
import {
  selectAppointments,
  selectAudience,
  selectCanBrowse,
  selectCargoId,
  selectHasFailed,
  selectIsLoading,
  selectIsPicked,
  selectLists,
  selectPeopleCount,
  selectPeopleExact,
  selectPickCount,
  selectPreview,
  selectQuery,
  selectTab,
  selectTotal,
} from '../../../machines/compose/recipient-picker-selectors';
import {
  selectCanLoadMore,
  selectHasFailed as selectListFailed,
  selectIsAppending,
  selectIsLoading as selectListLoading,
  selectIsStale,
} from '../../../machines/list/list';
import type { Audience, RecipientPick } from '../../../../shared/compose-contract';
import { useT, type Translate } from '../../lib/i18n';
import { Badge } from '../../ui/badge';
import { Button } from '../../ui/button';
import { Checkbox } from '../../ui/checkbox';
import { DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '../../ui/dialog';
import { NativeSelect } from '../../ui/native-select';
import { Spinner } from '../../ui/spinner';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '../../ui/tabs';
import { SearchInput } from '../../ui/search-input';
import { DeviceDot, DeviceLegend } from '../../lib/device-status';
import { useSelectors } from '../../lib/selectors';

const TABS: readonly PickerTab[] = ['students', 'staff', 'lists'];
const AUDIENCES: readonly Audience[] = ['apoderados', 'titulares', 'suplentes', 'estudiantes'];

/**
 * The recipient picker's dialog content (SPEC §2), over the picker actor compose spawned. The recipients
 * field owns the `Dialog` root and its trigger (so Radix returns focus to the button on close) and takes
 * its open state from the picker; Escape, outside click and "Cancelar" all cancel, and the machine
 * restores the selection the dialog opened with. "Confirmar" closes it and the picker hands the picks to
 * compose itself.
 */
export function RecipientPickerContent({ picker }: { picker: PickerActor }) {
  const t = useT();
  return (
    <DialogContent
      // On a phone the sheet takes the screen, its description is for screen readers only and its padding is
      // smaller: the results get most of it.
      className="h-[min(44rem,calc(100dvh-2rem))] max-w-3xl max-sm:h-[calc(100dvh-1rem)] max-sm:gap-3 max-sm:p-4"
      // Opening puts the caret in the search box (once the recipients are there); else Radix's default.
      onOpenAutoFocus={(e) => {
        const search = (e.currentTarget as HTMLElement | null)?.querySelector<HTMLInputElement>('input[type=search]');
        if (!search) return;
        e.preventDefault();
        search.focus();
      }}
    >
      <DialogHeader>
        <DialogTitle>{t('compose.picker.title')}</DialogTitle>
        <DialogDescription className="max-sm:sr-only">{t('compose.picker.description')}</DialogDescription>
      </DialogHeader>
      <PickerBody picker={picker} />
      {/* On a phone the two buttons share a row under the count, not one row each. */}
      <DialogFooter className="items-center border-t pt-4 max-sm:flex-row max-sm:flex-wrap max-sm:justify-end max-sm:pt-3">
        <SelectionSummary picker={picker} />
        <Button variant="outline" onClick={() => picker.send({ type: 'picker.cancel' })}>
          {t('compose.picker.cancel')}
        </Button>
        <Button onClick={() => picker.send({ type: 'picker.confirm' })}>{t('compose.picker.confirm')}</Button>
      </DialogFooter>
    </DialogContent>
  );
}

function SelectionSummary({ picker }: { picker: PickerActor }) {
  const t = useT();
  const { picks, people, exact } = useSelectors(picker, { picks: selectPickCount, people: selectPeopleCount, exact: selectPeopleExact });
  return (
    <p aria-live="polite" className="mr-auto flex flex-wrap items-center gap-x-2 text-sm text-muted-foreground max-sm:w-full">
      <span>{t('compose.picker.picks', { count: picks })}</span>
      {picks > 0 && <span>· {t(exact ? 'compose.picker.selectedExact' : 'compose.picker.selected', { count: people })}</span>}
      {picks > 0 && (
        <Button size="sm" variant="ghost" onClick={() => picker.send({ type: 'picker.clear' })}>
          {t('compose.picker.clear')}
        </Button>
      )}
    </p>
  );
}

function PickerBody({ picker }: { picker: PickerActor }) {
  const t = useT();
  const { loading, failed, tab, browsable } = useSelectors(picker, {
    loading: selectIsLoading,
    failed: selectHasFailed,
    tab: selectTab,
    browsable: selectCanBrowse,
  });
  if (failed) {
    return (
      <div role="alert" className="flex flex-1 flex-col items-start gap-3">
        <p>{t('compose.picker.loadFailed')}</p>
        <Button onClick={() => picker.send({ type: 'picker.retry' })}>{t('compose.retry')}</Button>
      </div>
    );
  }
  if (loading && !browsable) return <Spinner label={t('compose.picker.loading')} className="flex-1 items-start" />;
  // While the people arrive, the levels and courses are searched and shown; picking waits for the people.
  return (
    <Tabs value={tab} onValueChange={(value) => picker.send({ type: 'picker.tab', tab: value as PickerTab })} className="min-h-0 flex-1">
      {loading && <Spinner label={t('compose.picker.loadingPeople')} />}
      {/* On a phone the three labels share the width and wrap rather than run off the dialog. */}
      <TabsList className="h-auto min-h-9 w-full">
        {TABS.map((key) => (
          <TabsTrigger
            key={key}
            value={key}
            disabled={loading && key === 'lists'}
            className="min-w-0 text-xs leading-tight whitespace-normal sm:text-sm"
          >
            {t(`compose.picker.tabs.${key}`)}
          </TabsTrigger>
        ))}
      </TabsList>
      {/* Only the active panel mounts; the machine holds the current tab's rows. */}
      {TABS.map((key) => (
        <TabsContent key={key} value={key} className="flex min-h-0 flex-col gap-3">
          <Filters picker={picker} tab={key} />
          <Preview picker={picker} tab={key} />
        </TabsContent>
      ))}
    </Tabs>
  );
}

function Filters({ picker, tab }: { picker: PickerActor; tab: PickerTab }) {
  const t = useT();
  const { query, audience, cargoId, appointments } = useSelectors(picker, {
    query: selectQuery,
    audience: selectAudience,
    cargoId: selectCargoId,
    appointments: selectAppointments,
  });
  const filterId = useId();
  const helpId = useId();
  return (
    <div className="flex flex-wrap items-end gap-3">
      <SearchInput
        className="min-w-48 flex-1"
        aria-label={t('compose.picker.search')}
        placeholder={t('compose.picker.searchPlaceholder')}
        value={query}
        onSearch={(text) => picker.send({ type: 'picker.search', query: text })}
      />
      {tab === 'students' && (
        <label htmlFor={filterId} className="flex w-full items-center gap-2 text-sm sm:w-auto">
          <span className="shrink-0">{t('compose.picker.audience.label')}</span>
          <NativeSelect
            id={filterId}
            className="min-w-0 flex-1"
            aria-describedby={helpId}
            value={audience ?? ''}
            onChange={(e) => picker.send({ type: 'picker.filter', audience: (e.currentTarget.value || null) as Audience | null })}
          >
            <option value="">{t('compose.picker.audience.all')}</option>
            {AUDIENCES.map((key) => (
              <option key={key} value={key}>
                {t(`compose.picker.audience.${key}`)}
              </option>
            ))}
          </NativeSelect>
        </label>
      )}
      {tab === 'students' && (
        // What the choice does to what is marked: who receives the message (students, guardians, or which).
        <p id={helpId} className="w-full text-xs text-muted-foreground max-sm:hidden">
          {t(`compose.picker.audience.help.${audience ?? 'all'}`)}
        </p>
      )}
      {tab === 'staff' && (
        <label htmlFor={filterId} className="flex w-full items-center gap-2 text-sm sm:w-auto">
          <span className="shrink-0">{t('compose.picker.cargo.label')}</span>
          <NativeSelect
            id={filterId}
            className="min-w-0 flex-1"
            value={cargoId === null ? '' : String(cargoId)}
            onChange={(e) => picker.send({ type: 'picker.filter', cargoId: e.currentTarget.value ? Number(e.currentTarget.value) : null })}
          >
            <option value="">{t('compose.picker.cargo.all')}</option>
            {appointments.map((a) => (
              <option key={a.id} value={a.id}>
                {a.nombre}
              </option>
            ))}
          </NativeSelect>
        </label>
      )}
      {tab === 'students' && <DeviceLegend className="max-sm:hidden" />}
      {tab === 'students' && (
        // On a phone the help and the colours fold away, so the results get the sheet.
        <details data-slot="picker-help" className="w-full text-xs sm:hidden">
          <summary className="flex min-h-6 cursor-pointer items-center text-muted-foreground">{t('compose.picker.helpToggle')}</summary>
          <div className="flex flex-col gap-2 pt-2">
            <p className="text-muted-foreground">{t(`compose.picker.audience.help.${audience ?? 'all'}`)}</p>
            <DeviceLegend />
          </div>
        </details>
      )}
    </div>
  );
}

function Preview({ picker, tab }: { picker: PickerActor; tab: PickerTab }) {
  const lists = useSelector(picker, selectLists);
  return tab === 'lists' && lists ? <SavedLists picker={picker} lists={lists} /> : <Rows picker={picker} tab={tab} loading={false} />;
}

/** The saved lists tab: its rows come from the picker's index, its paging and failures from the lists' own actor. */
function SavedLists({ picker, lists }: { picker: PickerActor; lists: RecipientListsActor }) {
  const t = useT();
  const { loading, appending, failed, stale, more } = useSelectors(lists, {
    loading: selectListLoading,
    appending: selectIsAppending,
    failed: selectListFailed,
    stale: selectIsStale,
    more: selectCanLoadMore,
  });
  return (
    <div className="flex min-h-0 flex-1 flex-col gap-2">
      {(failed || stale) && (
        <div role="alert" className="flex items-center gap-3 text-sm">
          {t('compose.picker.listsFailed')}
          <Button size="sm" variant="outline" onClick={() => lists.send({ type: 'list.reload' })}>
            {t('compose.retry')}
          </Button>
        </div>
      )}
      <Rows picker={picker} tab="lists" loading={loading} />
      {(loading || appending) && <Spinner label={t('compose.picker.loadingLists')} />}
      {more && (
        <Button size="sm" variant="outline" className="self-start" onClick={() => lists.send({ type: 'list.more' })}>
          {t('compose.picker.moreLists')}
        </Button>
      )}
    </div>
  );
}

function Rows({ picker, tab, loading }: { picker: PickerActor; tab: PickerTab; loading: boolean }) {
  const t = useT();
  const { preview, total, query, audience, waiting } = useSelectors(picker, {
    preview: selectPreview,
    total: selectTotal,
    query: selectQuery,
    audience: selectAudience,
    waiting: selectIsLoading,
  });
  return (
    <div className="flex min-h-0 flex-1 flex-col gap-2">
      <p data-slot="picker-showing" aria-live="polite" className="text-xs text-muted-foreground">
        {t('compose.picker.showing', { shown: preview.length, total })}
      </p>
      {preview.length === 0 && !loading ? (
        <p className="rounded-md border border-dashed p-6 text-center text-sm text-muted-foreground">
          {query ? t('compose.picker.emptySearch', { q: query }) : t('compose.picker.empty')}
        </p>
      ) : (
        <ul aria-label={t(`compose.picker.tabs.${tab}`)} className="min-h-0 flex-1 divide-y overflow-y-auto rounded-md border">
          {preview.map((item) => (
            <Row key={item.key} picker={picker} item={item} audience={audience} waiting={waiting} />
          ))}
        </ul>
      )}
    </div>
  );
}

/** `waiting`: the people have not arrived: the row cannot be picked yet and its size is unknown. */
function Row({ picker, item, audience, waiting }: { picker: PickerActor; item: IndexItem; audience: Audience | null; waiting: boolean }) {
  const t = useT();
  const pick = pickOf(item, audience);
  const family = item.kind === 'family';
  const checked = useSelector(picker, (s) => selectIsPicked(s, pick));
  const id = useId();
  return (
    <li className="flex items-center gap-3 px-3 py-2" data-kind={item.kind}>
      <Checkbox
        id={id}
        checked={checked}
        disabled={waiting}
        aria-describedby={item.detail ? `${id}-detail ${id}-meta` : `${id}-meta`}
        onCheckedChange={() => picker.send({ type: 'picker.toggle', pick })}
      />
      {item.deviceStatus && <DeviceDot status={item.deviceStatus} />}
      <span className="flex min-w-0 flex-1 flex-col">
        <label htmlFor={id} className="cursor-pointer text-sm font-medium break-words">
          {family ? pickText(t, pick, item.name) : item.name}
        </label>
        {/* Under the name and wrapped, never cut: the course and the child are what tell two namesakes apart. */}
        {item.detail && (
          <span id={`${id}-detail`} className="text-xs break-words text-muted-foreground">
            {rowDetail(t, item)}
          </span>
        )}
      </span>
      <span id={`${id}-meta`} className="flex shrink-0 items-center gap-2 text-xs text-muted-foreground">
        {!waiting && sizeText(t, item)}
        {item.empty && !waiting ? (
          <Badge variant="warning">{t(family ? 'compose.picker.noGuardians' : 'compose.emptyCourse')}</Badge>
        ) : (
          <Badge variant="secondary">{t(`compose.picker.kind.${item.kind}`)}</Badge>
        )}
      </span>
    </li>
  );
}

type T = ReturnType<typeof useT>;

/**
 * What a pick is called on its row and its chip: a student's family («Apoderados de Sofía Pérez (3° Básico
 * A)», the audience chosen) or the name itself.
 */
export function pickText(t: Translate, pick: RecipientPick, name: string): string {
  return isFamilyPick(pick) ? t(`compose.picker.familyOf.${pick.audience}`, { student: name }) : name;
}

function rowDetail(t: T, item: IndexItem): string {
  // A guardian row says which role it has for which student, and the student's course ("Titular de Ana
  // Pérez · 3° Básico A"): two children of the same name are in different courses.
  if (item.kind === 'guardian' && item.detail) {
    const of = t('compose.picker.guardianOf', {
      role: item.roleId === null ? '' : t(`compose.picker.role.${item.roleId}`),
      student: item.detail,
    });
    return item.course ? `${of} · ${item.course}` : of;
  }
  return item.detail ?? '';
}

function sizeText(t: T, item: IndexItem): string | null {
  if (item.empty) return null;
  if (item.kind === 'level' || item.kind === 'course' || item.kind === 'elective')
    return t('compose.picker.students', { count: item.size });
  if (item.kind === 'appointment') return t('compose.picker.staffCount', { count: item.size });
  if (item.kind === 'recipient-list') return t('compose.picker.members', { count: item.size });
  return null;
}
