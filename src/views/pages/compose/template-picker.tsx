// "Usar plantilla": the button, the dialog listing the templates (search, repository filter, keyboard:
// Tab through the rows, Enter or Space on "Usar"), and «¿Reemplazar el título y el contenido?» when the
// form already has text. The template picker actor (compose/template-picker.ts) is compose's child `templates`.
import { useSelector } from '@xstate/react';
import { TEMPLATE_REPOSITORIES, type Template, type TemplateRepositoryCode } from '../../../../shared/templates-contract';
import { selectIsBusy } from '../../../machines/list/list';
import type { TemplateListActor } from '../../../machines/templates/templates';
import {
  selectAsksReplace,
  selectChosenName,
  selectPickerFetching,
  selectPickerItems,
  selectPickerList,
  selectPickerOpen,
  selectPickerQuery,
  selectPickerRepository,
  USE_TEMPLATE_BUTTON_ID,
  type TemplatePickerActor,
} from '../../../machines/compose/template-picker';
import { selectIsLocked } from '../../../machines/compose/selectors';
import type { ComposeSnapshot } from '../../../machines/compose/compose';
import { useT } from '../../lib/i18n';
import { useSelectors } from '../../lib/selectors';
import { MergeFieldText } from '../../lib/merge-fields';
import { Button } from '../../ui/button';
import { ConfirmDialog } from '../../ui/confirm-dialog';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '../../ui/dialog';
import { NativeSelect } from '../../ui/native-select';
import { Spinner } from '../../ui/spinner';
import { SmsSize } from '../templates/sms-size';
import { repositoryName } from '../templates/repository';
import { ListFailure, ListSkeleton } from '../../ui/list-state';
import { ListBody, useListPhase } from '../../ui/list-page';
import { SearchInput } from '../../ui/search-input';
import type { ComposeActor } from './field';

const selectTemplates = (s: ComposeSnapshot): TemplatePickerActor | undefined => s.children.templates as TemplatePickerActor | undefined;

/** The "Usar plantilla" button and what it opens. */
export function TemplateField({ compose }: { compose: ComposeActor }) {
  const t = useT();
  const { picker, locked } = useSelectors(compose, { picker: selectTemplates, locked: selectIsLocked });
  return (
    <div className="flex flex-wrap items-center justify-end gap-2">
      {picker && <Fetching picker={picker} />}
      <Button
        id={USE_TEMPLATE_BUTTON_ID}
        type="button"
        variant="outline"
        size="sm"
        disabled={locked || !picker}
        aria-haspopup="dialog"
        onClick={() => compose.send({ type: 'template.open' })}
      >
        {t('templates.picker.open')}
      </Button>
      {picker && <PickerDialog picker={picker} />}
      {picker && <ReplaceDialog picker={picker} />}
    </div>
  );
}

function Fetching({ picker }: { picker: TemplatePickerActor }) {
  const t = useT();
  const fetching = useSelector(picker, selectPickerFetching);
  if (!fetching) return null;
  return <Spinner label={t('templates.picker.loading')} />;
}

function PickerDialog({ picker }: { picker: TemplatePickerActor }) {
  const t = useT();
  const open = useSelector(picker, selectPickerOpen);
  return (
    <Dialog open={open} onOpenChange={(next) => !next && picker.send({ type: 'templates.close' })}>
      {open && (
        <DialogContent className="h-[min(40rem,calc(100dvh-2rem))] max-w-2xl" onCloseAutoFocus={(e) => e.preventDefault()}>
          <DialogHeader>
            <DialogTitle>{t('templates.picker.title')}</DialogTitle>
            <DialogDescription>{t('templates.picker.description')}</DialogDescription>
          </DialogHeader>
          <PickerFilters picker={picker} />
          <PickerList picker={picker} />
          <DialogFooter>
            <Button type="button" variant="outline" onClick={() => picker.send({ type: 'templates.close' })}>
              {t('templates.picker.close')}
            </Button>
          </DialogFooter>
        </DialogContent>
      )}
    </Dialog>
  );
}

function PickerFilters({ picker }: { picker: TemplatePickerActor }) {
  const t = useT();
  const { q, repository } = useSelectors(picker, { q: selectPickerQuery, repository: selectPickerRepository });
  return (
    <div className="flex flex-col gap-2 sm:flex-row">
      <SearchInput
        autoFocus
        className="flex-1"
        aria-label={t('templates.search')}
        placeholder={t('templates.searchPlaceholder')}
        value={q}
        onSearch={(text) => picker.send({ type: 'templates.search', q: text })}
      />
      <NativeSelect
        aria-label={t('templates.repositories')}
        value={repository ?? ''}
        onChange={(e) => {
          const value = e.currentTarget.value;
          picker.send({ type: 'templates.repository', repository: value === '' ? null : (value as TemplateRepositoryCode) });
        }}
      >
        <option value="">{t('templates.repository.all')}</option>
        {TEMPLATE_REPOSITORIES.map((code) => (
          <option key={code} value={code}>
            {repositoryName(t, code)}
          </option>
        ))}
      </NativeSelect>
    </div>
  );
}

function PickerList({ picker }: { picker: TemplatePickerActor }) {
  const t = useT();
  const list = useSelector(picker, selectPickerList);
  if (!list) return <ListSkeleton label={t('templates.loading')} rows={3} />;
  return <PickerBody picker={picker} list={list} />;
}

function PickerBody({ picker, list }: { picker: TemplatePickerActor; list: TemplateListActor }) {
  const t = useT();
  const phase = useListPhase(list);
  const { items, q } = useSelectors(picker, { items: selectPickerItems, q: selectPickerQuery });
  const busy = useSelector(list, selectIsBusy);
  return (
    <ListBody
      phase={phase}
      skeleton={<ListSkeleton label={t('templates.loading')} rows={3} />}
      failure={
        <ListFailure
          className="p-4"
          message={t('templates.failed')}
          retryLabel={t('templates.retry')}
          onRetry={() => picker.send({ type: 'templates.retry' })}
        />
      }
      empty={
        <p role="status" className="text-sm text-muted-foreground">
          {q.trim() ? t('templates.empty.search', { q: q.trim() }) : t('templates.empty.other')}
        </p>
      }
    >
      <ul aria-label={t('templates.heading')} aria-busy={busy} className="-mx-1 flex min-h-0 flex-1 flex-col gap-2 overflow-y-auto px-1">
        {items.map((template) => (
          <PickerRow key={template.id} picker={picker} template={template} />
        ))}
      </ul>
    </ListBody>
  );
}

function PickerRow({ picker, template }: { picker: TemplatePickerActor; template: Template }) {
  const t = useT();
  return (
    <li className="flex flex-col gap-1 rounded-md border p-3 sm:flex-row sm:items-start sm:gap-3">
      <div className="min-w-0 flex-1">
        <p className="font-medium break-words">
          {template.name} <span className="text-xs font-normal text-muted-foreground">· {repositoryName(t, template.repository.code)}</span>
        </p>
        <p className="line-clamp-2 text-sm break-words text-muted-foreground">
          <MergeFieldText text={template.content} />
        </p>
        <SmsSize content={template.content} />
      </div>
      <Button
        type="button"
        size="sm"
        className="self-start"
        aria-label={t('templates.picker.chooseLabel', { name: template.name })}
        onClick={() => picker.send({ type: 'templates.choose', id: template.id })}
      >
        {t('templates.picker.choose')}
      </Button>
    </li>
  );
}

/** «¿Reemplazar el título y el contenido?»: focus starts on Reemplazar; Escape keeps what was typed. */
function ReplaceDialog({ picker }: { picker: TemplatePickerActor }) {
  const t = useT();
  const { asking, name } = useSelectors(picker, { asking: selectAsksReplace, name: selectChosenName });
  return (
    <ConfirmDialog
      open={asking}
      title={t('templates.picker.replaceTitle')}
      description={t('templates.picker.replaceBody', { name })}
      confirmLabel={t('templates.picker.replace')}
      cancelLabel={t('templates.picker.keep')}
      onConfirm={() => picker.send({ type: 'templates.confirm' })}
      onCancel={() => picker.send({ type: 'templates.cancel' })}
    />
  );
}
