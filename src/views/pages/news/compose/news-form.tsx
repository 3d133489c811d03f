// The news compose form's sections: text, category, files, audience, when, pin and end, the actions and
// the question before leaving. Each reads one primitive per selector and sends what happens.
import { useSelector } from '@xstate/react';
import { NEWS_FIELD_IDS } from '../../../../machines/news/compose-rules';
import {
  selectBody,
  selectCategories,
  selectCategoryId,
  selectEndsDate,
  selectEndsTime,
  selectHasEnds,
  selectIsAskingToLeave,
  selectIsEditingPost,
  selectIsLocked,
  selectIsSaving,
  selectPinned,
  selectPublishDate,
  selectPublishNow,
  selectPublishTime,
  selectRestored,
  selectSaveFailed,
  selectTimezone,
  selectTitle,
} from '../../../../machines/news/compose-selectors';
import { useT } from '../../../lib/i18n';
import { Button } from '../../../ui/button';
import { ConfirmDialog } from '../../../ui/confirm-dialog';
import { describedBy, errorProps, FieldDescription, FieldError, FormField } from '../../../ui/field';
import { Input } from '../../../ui/input';
import { InputField } from '../../../ui/input-field';
import { Label } from '../../../ui/label';
import { NativeSelect } from '../../../ui/native-select';
import { Switch } from '../../../ui/switch';
import { Textarea } from '../../../ui/textarea';
import { MachineForm } from '../../../ui/form';
import { AudienceField } from './audience-field';
import { FilesField } from './files-field';
import { useNewsFieldError, type NewsComposeActor } from './shared';
import { useSelectors } from '../../../lib/selectors';
import { Radio } from '../../../ui/radio';

export function NewsForm({ compose }: { compose: NewsComposeActor }) {
  return (
    <MachineForm className="flex flex-col gap-6 rounded-lg border bg-card p-4 sm:p-6" onSend={() => compose.send({ type: 'news.save' })}>
      <RestoredNotice compose={compose} />
      <TextFields compose={compose} />
      <CategoryField compose={compose} />
      <FilesField compose={compose} />
      <AudienceField compose={compose} />
      <WhenField compose={compose} />
      <PinField compose={compose} />
      <EndsField compose={compose} />
      <Actions compose={compose} />
      <LeaveDialog compose={compose} />
    </MachineForm>
  );
}

function RestoredNotice({ compose }: { compose: NewsComposeActor }) {
  const t = useT();
  const restored = useSelector(compose, selectRestored);
  if (!restored) return null;
  return (
    <div
      role="status"
      className="flex flex-wrap items-center justify-between gap-2 rounded-md border border-primary/40 bg-accent px-3 py-2 text-sm"
    >
      <span>{t('newsCompose.restored')}</span>
      <Button type="button" size="sm" variant="ghost" onClick={() => compose.send({ type: 'news.dismissRestored' })}>
        {t('newsCompose.restoredDismiss')}
      </Button>
    </div>
  );
}

function TextFields({ compose }: { compose: NewsComposeActor }) {
  const t = useT();
  const { title, body, locked } = useSelectors(compose, { title: selectTitle, body: selectBody, locked: selectIsLocked });
  const titleError = useNewsFieldError(compose, 'title');
  const bodyError = useNewsFieldError(compose, 'body');
  return (
    <>
      <InputField
        label={t('newsCompose.title')}
        id={NEWS_FIELD_IDS.title}
        error={titleError}
        value={title}
        readOnly={locked}
        autoComplete="off"
        onValueChange={(value) => compose.send({ type: 'news.change', field: 'title', value })}
      />
      <FormField label={t('newsCompose.body')} htmlFor={NEWS_FIELD_IDS.body} error={bodyError.text} errorId={bodyError.id}>
        <Textarea
          id={NEWS_FIELD_IDS.body}
          value={body}
          readOnly={locked}
          rows={8}
          {...errorProps(bodyError.text, bodyError.id)}
          onChange={(e) => compose.send({ type: 'news.change', field: 'body', value: e.currentTarget.value })}
        />
      </FormField>
    </>
  );
}

function CategoryField({ compose }: { compose: NewsComposeActor }) {
  const t = useT();
  const { categories, categoryId, locked } = useSelectors(compose, {
    categories: selectCategories,
    categoryId: selectCategoryId,
    locked: selectIsLocked,
  });
  const error = useNewsFieldError(compose, 'category_id');
  return (
    <FormField label={t('newsCompose.category')} htmlFor={NEWS_FIELD_IDS.category_id} error={error.text} errorId={error.id}>
      <NativeSelect
        id={NEWS_FIELD_IDS.category_id}
        className="w-full sm:w-72"
        value={categoryId === null ? '' : String(categoryId)}
        disabled={locked}
        {...errorProps(error.text, error.id)}
        onChange={(e) =>
          compose.send({ type: 'news.setCategory', id: e.currentTarget.value === '' ? null : Number(e.currentTarget.value) })
        }
      >
        <option value="">{t('newsCompose.noCategory')}</option>
        {categories.map((category) => (
          <option key={category.id} value={category.id}>
            {category.name}
          </option>
        ))}
      </NativeSelect>
    </FormField>
  );
}

/** A date and a time on the school's clock; a missing half reads as an invalid date. */
function WallTimeInputs({
  compose,
  dateId,
  date,
  time,
  error,
  onChange,
}: {
  compose: NewsComposeActor;
  dateId: string;
  date: string;
  time: string;
  error: ReturnType<typeof useNewsFieldError>;
  onChange: (date: string, time: string) => void;
}) {
  const t = useT();
  const locked = useSelector(compose, selectIsLocked);
  const described = describedBy(`${dateId}-zone`, error.text && error.id);
  return (
    <div className="flex flex-wrap items-end gap-3">
      <div className="flex flex-col gap-1">
        <Label htmlFor={dateId}>{t('newsCompose.date')}</Label>
        <Input
          id={dateId}
          type="date"
          className="w-44"
          value={date}
          readOnly={locked}
          aria-invalid={error.invalid}
          aria-describedby={described}
          onChange={(e) => onChange(e.currentTarget.value, time)}
        />
      </div>
      <div className="flex flex-col gap-1">
        <Label htmlFor={`${dateId}-time`}>{t('newsCompose.time')}</Label>
        <Input
          id={`${dateId}-time`}
          type="time"
          className="w-32"
          value={time}
          readOnly={locked}
          aria-invalid={error.invalid}
          aria-describedby={described}
          onChange={(e) => onChange(date, e.currentTarget.value)}
        />
      </div>
    </div>
  );
}

function ZoneNote({ compose, id }: { compose: NewsComposeActor; id: string }) {
  const t = useT();
  const timezone = useSelector(compose, selectTimezone);
  return (
    <p id={id} className="text-xs text-muted-foreground">
      {t('newsCompose.zone', { timezone })}
    </p>
  );
}

function WhenField({ compose }: { compose: NewsComposeActor }) {
  const t = useT();
  const { now, date, time, locked } = useSelectors(compose, {
    now: selectPublishNow,
    date: selectPublishDate,
    time: selectPublishTime,
    locked: selectIsLocked,
  });
  const error = useNewsFieldError(compose, 'publish_at');
  const dateId = NEWS_FIELD_IDS.publish_at;
  return (
    <fieldset className="flex flex-col gap-2">
      <legend className="mb-1 text-sm font-medium">{t('newsCompose.when')}</legend>
      <div className="flex flex-wrap gap-4 text-sm">
        <label className="flex items-center gap-2">
          <Radio name="news-when" checked={now} disabled={locked} onChange={() => compose.send({ type: 'news.setPublish', at: null })} />
          {t('newsCompose.now')}
        </label>
        <label className="flex items-center gap-2">
          <Radio
            name="news-when"
            checked={!now}
            disabled={locked}
            onChange={() => compose.send({ type: 'news.setPublish', at: { date: '', time: '' } })}
          />
          {t('newsCompose.at')}
        </label>
      </div>
      {!now && (
        <>
          <WallTimeInputs
            compose={compose}
            dateId={dateId}
            date={date}
            time={time}
            error={error}
            onChange={(d, h) => compose.send({ type: 'news.setPublish', at: { date: d, time: h } })}
          />
          <ZoneNote compose={compose} id={`${dateId}-zone`} />
        </>
      )}
      <FieldError id={error.id}>{error.text}</FieldError>
    </fieldset>
  );
}

function PinField({ compose }: { compose: NewsComposeActor }) {
  const t = useT();
  const { pinned, locked } = useSelectors(compose, { pinned: selectPinned, locked: selectIsLocked });
  return (
    <div className="flex items-start gap-3">
      <Switch
        id="news-pinned"
        checked={pinned}
        disabled={locked}
        aria-describedby="news-pinned-hint"
        onCheckedChange={(value) => compose.send({ type: 'news.setPinned', pinned: value })}
      />
      <div className="flex flex-col gap-0.5">
        <Label htmlFor="news-pinned">{t('newsCompose.pinned')}</Label>
        <FieldDescription id="news-pinned-hint">{t('newsCompose.pinnedHint')}</FieldDescription>
      </div>
    </div>
  );
}

function EndsField({ compose }: { compose: NewsComposeActor }) {
  const t = useT();
  const { date, time, hasEnds, locked } = useSelectors(compose, {
    date: selectEndsDate,
    time: selectEndsTime,
    hasEnds: selectHasEnds,
    locked: selectIsLocked,
  });
  const error = useNewsFieldError(compose, 'ends_at');
  const dateId = NEWS_FIELD_IDS.ends_at;
  // A date alone ends the post at the end of that day: what "quitar el 30-06" means to a reader.
  const change = (d: string, h: string) =>
    compose.send({ type: 'news.setEnds', at: d === '' && h === '' ? null : { date: d, time: h === '' && d !== '' ? '23:59' : h } });
  return (
    <fieldset className="flex flex-col gap-2">
      <legend className="mb-1 text-sm font-medium">{t('newsCompose.ends')}</legend>
      <FieldDescription>{t('newsCompose.endsHint')}</FieldDescription>
      <WallTimeInputs compose={compose} dateId={dateId} date={date} time={time} error={error} onChange={change} />
      <ZoneNote compose={compose} id={`${dateId}-zone`} />
      {hasEnds && (
        <Button
          type="button"
          variant="ghost"
          size="sm"
          className="self-start"
          disabled={locked}
          onClick={() => compose.send({ type: 'news.setEnds', at: null })}
        >
          {t('newsCompose.endsClear')}
        </Button>
      )}
      <FieldError id={error.id}>{error.text}</FieldError>
    </fieldset>
  );
}

function Actions({ compose }: { compose: NewsComposeActor }) {
  const t = useT();
  const { saving, locked, failed, editing, now } = useSelectors(compose, {
    saving: selectIsSaving,
    locked: selectIsLocked,
    failed: selectSaveFailed,
    editing: selectIsEditingPost,
    now: selectPublishNow,
  });
  const label = saving ? 'newsCompose.saving' : editing ? 'newsCompose.update' : now ? 'newsCompose.publish' : 'newsCompose.schedule';
  return (
    <div className="flex flex-col gap-2">
      {failed && (
        <p role="alert" className="text-sm text-destructive">
          {t('newsCompose.failed')}
        </p>
      )}
      <div className="flex flex-wrap justify-end gap-2">
        <Button type="submit" id="news-save" disabled={locked} aria-busy={saving || undefined} className="w-full sm:w-auto">
          {t(label)}
        </Button>
      </div>
    </div>
  );
}

/** «¿Descartar los cambios?»: Escape, a click outside and "Seguir editando" all stay; focus starts on staying. */
function LeaveDialog({ compose }: { compose: NewsComposeActor }) {
  const t = useT();
  const asking = useSelector(compose, selectIsAskingToLeave);
  return (
    <ConfirmDialog
      open={asking}
      title={t('newsCompose.leave.title')}
      description={t('newsCompose.leave.body')}
      confirmLabel={t('newsCompose.leave.discard')}
      cancelLabel={t('newsCompose.leave.stay')}
      destructive
      focus="cancel"
      onConfirm={() => compose.send({ type: 'news.discard' })}
      onCancel={() => compose.send({ type: 'news.stay' })}
    />
  );
}
