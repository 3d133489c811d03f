// /templates (SPEC §2, §3 "Template"): the three repositories as tabs, a search, each template with its
// preview (merge fields as chips) and SMS size; the own ones are edited and deleted, the others copied to
// Mis plantillas; any can start a new message. Sections in pages/templates/.
import { useSelector } from '@xstate/react';
import { Link } from 'wouter';
import { PRODUCT_REPOSITORY, TEMPLATE_REPOSITORIES, type Template, type TemplateRepositoryCode } from '../../../../shared/templates-contract';
import {
  selectIsBusy,
  selectIsStale,
  selectPlaceholder,
  selectTotal,
} from '../../../machines/list/list';
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
import { Badge } from '../../ui/badge';
import { Button } from '../../ui/button';
import { Input } from '../../ui/input';
import { ListFailure, ListSkeleton } from '../../ui/list-state';
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
  const list = useSelector(actor, selectList);
  const repository = useSelector(actor, selectRepository);
  const canAct = useSelector(actor, selectCanAct);
  return (
    <section aria-labelledby="page-title" className="mx-auto flex max-w-5xl flex-col gap-4">
      <header className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0 flex-1">
          <h1 id="page-title" className="text-2xl font-bold">
            {t('templates.heading')}
          </h1>
          <p className="text-sm text-muted-foreground">{t('templates.intro', { product: PRODUCT_REPOSITORY.name })}</p>
        </div>
        <Button id={NEW_TEMPLATE_BUTTON_ID} disabled={!canAct} onClick={() => actor.send({ type: 'templates.create' })}>
          {t('templates.new')}
        </Button>
      </header>
      <Tabs value={repository} onValueChange={(value) => actor.send({ type: 'templates.repository', repository: value as TemplateRepositoryCode })}>
        <div className="flex flex-wrap items-center justify-between gap-3">
          <TabsList aria-label={t('templates.repositories')} className="max-w-full overflow-x-auto">
            {TEMPLATE_REPOSITORIES.map((code) => (
              <TabsTrigger key={code} value={code}>
                {repositoryName(t, code)}
              </TabsTrigger>
            ))}
          </TabsList>
          <SearchBox actor={actor} />
        </div>
        {TEMPLATE_REPOSITORIES.map((code) => (
          <TabsContent key={code} value={code} className="flex flex-col gap-3">
            {code !== repository ? null : list ? <Body actor={actor} list={list} /> : <Failure actor={actor} />}
          </TabsContent>
        ))}
      </Tabs>
      <TemplateEditor actor={actor} />
      <DeleteDialog actor={actor} />
    </section>
  );
}

function SearchBox({ actor }: { actor: TemplatesActor }) {
  const t = useT();
  const q = useSelector(actor, selectQuery);
  return (
    <Input
      type="search"
      className="w-full sm:w-80"
      aria-label={t('templates.search')}
      placeholder={t('templates.searchPlaceholder')}
      value={q}
      onChange={(e) => actor.send({ type: 'templates.search', q: e.currentTarget.value })}
    />
  );
}

/** List failures are silent (SPEC §8): this, with Reintentar, in place of the rows or below them. */
function Failure({ actor, stale = false }: { actor: TemplatesActor; stale?: boolean }) {
  const t = useT();
  return (
    <ListFailure message={t(stale ? 'templates.stale' : 'templates.failed')} retryLabel={t('templates.retry')} onRetry={() => actor.send({ type: 'templates.retry' })} />
  );
}

function Body({ actor, list }: { actor: TemplatesActor; list: TemplateListActor }) {
  const t = useT();
  const placeholder = useSelector(list, selectPlaceholder);
  const stale = useSelector(list, selectIsStale);
  const busy = useSelector(list, selectIsBusy);
  const total = useSelector(list, selectTotal);
  const items = useSelector(actor, selectItems);
  const q = useSelector(actor, selectQuery);
  const repository = useSelector(actor, selectRepository);

  if (placeholder !== 'rows') {
    if (placeholder === 'failed') return <Failure actor={actor} />;
    if (placeholder === 'empty') {
      return (
        <p role="status" className="rounded-lg border border-dashed bg-card p-10 text-center text-muted-foreground">
          {q.trim()
            ? t('templates.empty.search', { q: q.trim() })
            : repository === 'mis-plantillas'
              ? t('templates.empty.mis-plantillas', { product: PRODUCT_REPOSITORY.name })
              : t('templates.empty.other')}
        </p>
      );
    }
    return <CardsSkeleton />;
  }
  return (
    <>
      {total !== null && (
        <p className="text-sm text-muted-foreground" aria-live="polite">
          {t('templates.count', { count: total })}
        </p>
      )}
      <ul aria-label={repositoryName(t, repository)} aria-busy={busy} className="grid gap-3 md:grid-cols-2">
        {items.map((template) => (
          <TemplateCard key={template.id} actor={actor} template={template} />
        ))}
      </ul>
      {stale && <Failure actor={actor} stale />}
    </>
  );
}

function TemplateCard({ actor, template }: { actor: TemplatesActor; template: Template }) {
  const t = useT();
  const canAct = useSelector(actor, selectCanAct);
  const busyId = useSelector(actor, selectBusyId);
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
            <Button
              id={editButtonId(template.id)}
              size="sm"
              variant="outline"
              disabled={!canAct}
              aria-label={t('templates.editLabel', { name })}
              onClick={() => actor.send({ type: 'templates.edit', id: template.id })}
            >
              {t('templates.edit')}
            </Button>
            <Button
              id={deleteButtonId(template.id)}
              size="sm"
              variant="ghost"
              className="text-destructive"
              disabled={!canAct}
              aria-label={t('templates.deleteLabel', { name })}
              onClick={() => actor.send({ type: 'templates.delete', id: template.id })}
            >
              {t('templates.delete')}
            </Button>
          </>
        ) : (
          <Button
            size="sm"
            variant="outline"
            disabled={!canAct}
            aria-label={t('templates.copyLabel', { name })}
            onClick={() => actor.send({ type: 'templates.copy', id: template.id })}
          >
            {t('templates.copy')}
          </Button>
        )}
      </div>
    </li>
  );
}

function CardsSkeleton() {
  const t = useT();
  return <ListSkeleton label={t('templates.loading')} rows={4} className="grid gap-3 md:grid-cols-2" rowClassName="h-40 rounded-lg" />;
}
