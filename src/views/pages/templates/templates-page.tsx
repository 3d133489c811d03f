// /templates (SPEC §2, §3 "Template"): the three repositories as tabs, a search, each template with its
// preview (merge fields as chips) and SMS size; the own ones are edited and deleted, the others copied to
// Mis plantillas; any can start a new message. Sections in pages/templates/.
import type { ComponentProps } from 'react';
import { Link } from 'wouter';
import {
  PRODUCT_REPOSITORY,
  TEMPLATE_REPOSITORIES,
  type Template,
  type TemplateRepositoryCode,
} from '../../../../shared/templates-contract';
import { selectIsBusy, selectIsStale, selectPlaceholder } from '../../../machines/list/list';
import { deleteButtonId, editButtonId, NEW_TEMPLATE_BUTTON_ID } from '../../../machines/templates/rules';
import {
  selectBusyId,
  selectCanAct,
  selectItems,
  selectList,
  selectQuery,
  selectRepository,
  templatesMachine,
  type TemplateListActor,
  type TemplatesActor,
} from '../../../machines/templates/templates';
import { useT } from '../../lib/i18n';
import { MergeFieldText } from '../../lib/merge-fields';
import { usePageActor } from '../../lib/page-actor';
import { useSelectors } from '../../lib/selectors';
import { Badge } from '../../ui/badge';
import { Button } from '../../ui/button';
import { ListFailure, ListSkeleton } from '../../ui/list-state';
import { ListBody, ListEmpty, ListPage, ListTotal } from '../../ui/list-page';
import { SearchInput } from '../../ui/search-input';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '../../ui/tabs';
import { repositoryName } from './repository';
import { DeleteDialog, TemplateEditor } from './editor';
import { SmsSize } from './sms-size';

export function TemplatesPage() {
  const actor = usePageActor(templatesMachine, { input: {} });
  return actor ? <TemplatesScreen actor={actor} /> : <CardsSkeleton />;
}

function TemplatesScreen({ actor }: { actor: TemplatesActor }) {
  const t = useT();
  const { list, repository, canAct, q } = useSelectors(actor, {
    list: selectList,
    repository: selectRepository,
    canAct: selectCanAct,
    q: selectQuery,
  });
  return (
    <ListPage
      title={t('templates.heading')}
      below={<p className="text-sm text-muted-foreground">{t('templates.intro', { product: PRODUCT_REPOSITORY.name })}</p>}
      align="start"
      titleClassName="min-w-0 flex-1"
      actions={
        <Button id={NEW_TEMPLATE_BUTTON_ID} disabled={!canAct} onClick={() => actor.send({ type: 'templates.create' })}>
          {t('templates.new')}
        </Button>
      }
    >
      <Tabs
        value={repository}
        onValueChange={(value) => actor.send({ type: 'templates.repository', repository: value as TemplateRepositoryCode })}
      >
        <div className="flex flex-wrap items-center justify-between gap-3">
          <TabsList aria-label={t('templates.repositories')} className="max-w-full overflow-x-auto">
            {TEMPLATE_REPOSITORIES.map((code) => (
              <TabsTrigger key={code} value={code}>
                {repositoryName(t, code)}
              </TabsTrigger>
            ))}
          </TabsList>
          <SearchInput
            aria-label={t('templates.search')}
            placeholder={t('templates.searchPlaceholder')}
            value={q}
            onSearch={(text) => actor.send({ type: 'templates.search', q: text })}
          />
        </div>
        {TEMPLATE_REPOSITORIES.map((code) => (
          <TabsContent key={code} value={code} className="flex flex-col gap-3">
            {code !== repository ? null : list ? <Body actor={actor} list={list} /> : <Failure actor={actor} />}
          </TabsContent>
        ))}
      </Tabs>
      <TemplateEditor actor={actor} />
      <DeleteDialog actor={actor} />
    </ListPage>
  );
}

/** List failures are silent (SPEC §8): this, with Reintentar, in place of the rows or below them. */
function Failure({ actor, stale = false }: { actor: TemplatesActor; stale?: boolean }) {
  const t = useT();
  return (
    <ListFailure
      message={t(stale ? 'templates.stale' : 'templates.failed')}
      retryLabel={t('templates.retry')}
      onRetry={() => actor.send({ type: 'templates.retry' })}
    />
  );
}

function Body({ actor, list }: { actor: TemplatesActor; list: TemplateListActor }) {
  const t = useT();
  // The phase as useListPhase reads it by default, with the list's other facts in one subscription.
  const { phase, stale, busy } = useSelectors(list, { phase: selectPlaceholder, stale: selectIsStale, busy: selectIsBusy });
  const { items, q, repository } = useSelectors(actor, { items: selectItems, q: selectQuery, repository: selectRepository });
  return (
    <ListBody
      phase={phase}
      skeleton={<CardsSkeleton />}
      failure={<Failure actor={actor} stale={phase === 'rows'} />}
      empty={
        <ListEmpty large>
          {q.trim()
            ? t('templates.empty.search', { q: q.trim() })
            : repository === 'mis-plantillas'
              ? t('templates.empty.mis-plantillas', { product: PRODUCT_REPOSITORY.name })
              : t('templates.empty.other')}
        </ListEmpty>
      }
      stale={stale}
    >
      <ListTotal list={list} aria-live="polite" text={(count) => t('templates.count', { count })} />
      <ul aria-label={repositoryName(t, repository)} aria-busy={busy} className="grid gap-3 md:grid-cols-2">
        {items.map((template) => (
          <TemplateCard key={template.id} actor={actor} template={template} />
        ))}
      </ul>
    </ListBody>
  );
}

function TemplateCard({ actor, template }: { actor: TemplatesActor; template: Template }) {
  const t = useT();
  const { canAct, busyId } = useSelectors(actor, { canAct: selectCanAct, busyId: selectBusyId });
  const busy = busyId === template.id;
  const name = template.name;
  return (
    <li data-slot="template-card" aria-busy={busy} className="flex min-w-0 flex-col gap-2 rounded-lg border bg-card p-4">
      <div className="flex items-start justify-between gap-2">
        <h2 className="min-w-0 text-base font-semibold break-words">{name}</h2>
        {!template.editable && <Badge variant="secondary">{t('templates.readOnly')}</Badge>}
      </div>
      <p className="line-clamp-4 text-sm break-words">
        <MergeFieldText text={template.content} />
      </p>
      <SmsSize content={template.content} />
      <div className="mt-auto flex flex-wrap gap-2 pt-1">
        <Button asChild size="sm">
          <Link href={`/new?template=${template.id}`} aria-label={t('templates.useLabel', { name })}>
            {t('templates.use')}
          </Link>
        </Button>
        {template.editable ? (
          <>
            <CardAction
              actor={actor}
              template={template}
              action="edit"
              id={editButtonId(template.id)}
              variant="outline"
              disabled={!canAct}
            />
            <CardAction
              actor={actor}
              template={template}
              action="delete"
              id={deleteButtonId(template.id)}
              variant="ghost"
              className="text-destructive"
              disabled={!canAct}
            />
          </>
        ) : (
          <CardAction actor={actor} template={template} action="copy" variant="outline" disabled={!canAct} />
        )}
      </div>
    </li>
  );
}

/** «Editar», «Eliminar» or «Copiar a Mis plantillas» on a card: named with the template, it sends the action with its id. */
function CardAction({
  actor,
  template,
  action,
  ...props
}: Omit<ComponentProps<typeof Button>, 'size' | 'aria-label' | 'onClick' | 'children'> & {
  actor: TemplatesActor;
  template: Template;
  action: 'edit' | 'delete' | 'copy';
}) {
  const t = useT();
  return (
    <Button
      size="sm"
      {...props}
      aria-label={t(`templates.${action}Label`, { name: template.name })}
      onClick={() => actor.send({ type: `templates.${action}`, id: template.id })}
    >
      {t(`templates.${action}`)}
    </Button>
  );
}

function CardsSkeleton() {
  const t = useT();
  return <ListSkeleton label={t('templates.loading')} rows={4} className="grid gap-3 md:grid-cols-2" rowClassName="h-40 rounded-lg" />;
}
