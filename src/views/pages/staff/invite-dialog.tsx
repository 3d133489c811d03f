// «Invitar personal» (staff/invite.ts): one person, or many pasted or read from a CSV file with a preview of
// every row and its problems; then what became of each person. Nothing typed is lost when a send fails.
import { ROLE_CODES } from '../../../../shared/codes';
import { INVITE_MAX_PEOPLE, type InviteOutcome } from '../../../../shared/staff-contract';
import {
  INVITE_NAME_ID,
  INVITE_RESULT_ID,
  INVITE_TEXT_ID,
  selectChecked,
  selectEmail,
  selectFailure,
  selectFileName,
  selectIsDone,
  selectIsReading,
  selectIsSending,
  selectMode,
  selectName,
  selectNameProblem,
  selectEmailProblem,
  selectOutcomes,
  selectParsed,
  selectRole,
  selectSendCount,
  selectSent,
  selectText,
  type InviteActor,
  type InviteMode,
} from '../../../machines/staff/invite';
import type { InviteProblem, InviteRow } from '../../../machines/staff/invite-rules';
import { useT, type Translate } from '../../lib/i18n';
import { useSelectors } from '../../lib/selectors';
import { Button } from '../../ui/button';
import { ChoiceButtons } from '../../ui/choice-buttons';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '../../ui/dialog';
import { errorProps, FieldDescription, FormField } from '../../ui/field';
import { MachineForm } from '../../ui/form';
import { Input } from '../../ui/input';
import { Label } from '../../ui/label';
import { NativeSelect } from '../../ui/native-select';
import { Textarea } from '../../ui/textarea';

const MODES: readonly InviteMode[] = ['one', 'many'];

const problemText = (problem: InviteProblem, row: Pick<InviteRow, 'roleText'>, t: Translate) =>
  t(`invite.problem.${problem}`, { role: row.roleText });

export function InviteDialog({ actor, onClose }: { actor: InviteActor; onClose: () => void }) {
  const t = useT();
  const { done, sending } = useSelectors(actor, { done: selectIsDone, sending: selectIsSending });
  return (
    <Dialog open onOpenChange={(next) => !next && !sending && onClose()}>
      <DialogContent className="max-w-2xl" data-slot="invite-dialog">
        <DialogHeader>
          <DialogTitle>{t('invite.title')}</DialogTitle>
          <DialogDescription>{t('invite.description')}</DialogDescription>
        </DialogHeader>
        {done ? <Outcomes actor={actor} onClose={onClose} /> : <InviteForm actor={actor} onClose={onClose} />}
      </DialogContent>
    </Dialog>
  );
}

function InviteForm({ actor, onClose }: { actor: InviteActor; onClose: () => void }) {
  const t = useT();
  const { mode, sending, reading, failure, count } = useSelectors(actor, {
    mode: selectMode,
    sending: selectIsSending,
    reading: selectIsReading,
    failure: selectFailure,
    count: selectSendCount,
  });
  const busy = sending || reading;
  return (
    <MachineForm className="flex min-h-0 flex-col gap-4" onSend={() => actor.send({ type: 'invite.send' })} aria-busy={busy || undefined}>
      <ChoiceButtons
        label={t('invite.mode.label')}
        options={MODES}
        value={mode}
        optionLabel={(option) => t(`invite.mode.${option}`)}
        onChoose={(option) => actor.send({ type: 'invite.mode', mode: option })}
      />
      <div className="flex min-h-0 flex-col gap-4 overflow-y-auto p-0.5">
        {mode === 'one' ? <OnePerson actor={actor} /> : <ManyPeople actor={actor} />}
      </div>
      {failure && (
        <p role="alert" className="rounded-md border border-destructive/40 bg-destructive/5 px-3 py-2 text-sm text-destructive">
          {'text' in failure ? failure.text : t(failure.key)}
        </p>
      )}
      <DialogFooter>
        <Button type="button" variant="outline" disabled={sending} onClick={onClose}>
          {t('invite.cancel')}
        </Button>
        <Button type="submit" aria-disabled={busy || undefined} aria-busy={sending || undefined}>
          {sending ? t('invite.sending') : t('invite.send', { count: Math.max(count, 1) })}
        </Button>
      </DialogFooter>
    </MachineForm>
  );
}

function OnePerson({ actor }: { actor: InviteActor }) {
  const t = useT();
  const { name, email, role, nameProblem, emailProblem } = useSelectors(actor, {
    name: selectName,
    email: selectEmail,
    role: selectRole,
    nameProblem: selectNameProblem,
    emailProblem: selectEmailProblem,
  });
  const nameError = nameProblem ? t(`invite.problem.${nameProblem}`) : null;
  const emailError = emailProblem ? t(`invite.problem.${emailProblem}`) : null;
  return (
    <>
      <FormField label={t('invite.name')} htmlFor={INVITE_NAME_ID} error={nameError} errorId="invite-name-error">
        <Input
          id={INVITE_NAME_ID}
          value={name}
          autoComplete="off"
          {...errorProps(nameError, 'invite-name-error')}
          onChange={(event) => actor.send({ type: 'invite.name', value: event.currentTarget.value })}
        />
      </FormField>
      <FormField label={t('invite.email')} htmlFor="invite-email" error={emailError} errorId="invite-email-error">
        <Input
          id="invite-email"
          type="email"
          inputMode="email"
          autoComplete="off"
          value={email}
          {...errorProps(emailError, 'invite-email-error')}
          onChange={(event) => actor.send({ type: 'invite.email', value: event.currentTarget.value })}
        />
      </FormField>
      <div className="flex flex-col gap-2">
        <Label htmlFor="invite-role">{t('invite.role')}</Label>
        <NativeSelect
          id="invite-role"
          value={role}
          onChange={(event) => {
            const value = ROLE_CODES.find((code) => code === event.currentTarget.value);
            if (value) actor.send({ type: 'invite.role', role: value });
          }}
        >
          {ROLE_CODES.map((code) => (
            <option key={code} value={code}>
              {t(`staff.role.${code}`)}
            </option>
          ))}
        </NativeSelect>
      </div>
    </>
  );
}

function ManyPeople({ actor }: { actor: InviteActor }) {
  const t = useT();
  const { text, fileName, reading, checked, parsed } = useSelectors(actor, {
    text: selectText,
    fileName: selectFileName,
    reading: selectIsReading,
    checked: selectChecked,
    parsed: selectParsed,
  });
  const bad = parsed.rows.filter((row) => row.problems.length > 0).length;
  const summaryError = checked && (bad > 0 || parsed.rows.length === 0 || parsed.tooMany);
  return (
    <>
      <div className="flex flex-col gap-2">
        <Label htmlFor={INVITE_TEXT_ID}>{t('invite.text')}</Label>
        <FieldDescription id="invite-text-hint">{t('invite.textHint')}</FieldDescription>
        <Textarea
          id={INVITE_TEXT_ID}
          value={text}
          rows={6}
          spellCheck={false}
          disabled={reading}
          aria-describedby={summaryError ? 'invite-text-hint invite-preview-summary' : 'invite-text-hint'}
          aria-invalid={summaryError || undefined}
          placeholder="Ana Rojas;ana.rojas@colegio.cl;docente"
          onChange={(event) => actor.send({ type: 'invite.text', text: event.currentTarget.value })}
        />
      </div>
      <div className="flex flex-wrap items-center gap-2">
        <Label htmlFor="invite-file" className="font-normal">
          {t('invite.file')}
        </Label>
        <input
          id="invite-file"
          type="file"
          accept=".csv,.txt,text/csv,text/plain"
          disabled={reading}
          className="max-w-full text-sm file:mr-2 file:rounded-md file:border file:bg-card file:px-3 file:py-1.5"
          onChange={(event) => {
            const file = event.currentTarget.files?.[0];
            // The same file may be chosen again after a correction.
            event.currentTarget.value = '';
            if (file) actor.send({ type: 'invite.file', file });
          }}
        />
        {reading && <span role="status">{t('invite.reading')}</span>}
        {!reading && fileName && <span className="text-sm text-muted-foreground">{t('invite.fileChosen', { name: fileName })}</span>}
      </div>
      <Preview rows={parsed.rows} tooMany={parsed.tooMany} checked={checked} bad={bad} />
    </>
  );
}

function Preview({ rows, tooMany, checked, bad }: { rows: InviteRow[]; tooMany: boolean; checked: boolean; bad: number }) {
  const t = useT();
  let summary: string;
  if (rows.length === 0) summary = t('invite.preview.empty');
  else if (tooMany) summary = t('invite.preview.tooMany', { max: INVITE_MAX_PEOPLE });
  else if (bad > 0) summary = t('invite.preview.problems', { count: bad });
  else summary = t('invite.preview.count', { count: rows.length });
  const isError = rows.length === 0 || tooMany || bad > 0;
  return (
    <section aria-labelledby="invite-preview-title" className="flex flex-col gap-2" data-slot="invite-preview">
      <h3 id="invite-preview-title" className="text-sm font-semibold">
        {t('invite.preview.title')}
      </h3>
      <p
        id="invite-preview-summary"
        role={checked && isError ? 'alert' : 'status'}
        className={isError && checked ? 'text-sm text-destructive' : 'text-sm text-muted-foreground'}
      >
        {summary}
      </p>
      {rows.length > 0 && (
        <ol className="flex flex-col divide-y rounded-md border text-sm" data-slot="invite-preview-rows">
          {rows.map((row) => (
            <li key={row.line} className="flex flex-col gap-0.5 px-3 py-2" data-invalid={row.problems.length > 0 || undefined}>
              <span className="text-xs text-muted-foreground">{t('invite.preview.line', { line: row.line })}</span>
              <span className="break-words">
                <span className="font-medium">{row.name || '—'}</span> · <span className="break-all">{row.email || '—'}</span>
                {row.role && <> · {t(`staff.role.${row.role}`)}</>}
              </span>
              {row.problems.length > 0 ? (
                <ul className="text-destructive">
                  {row.problems.map((problem) => (
                    <li key={problem}>{problemText(problem, row, t)}</li>
                  ))}
                </ul>
              ) : (
                <span className="text-muted-foreground">{t('invite.preview.ok')}</span>
              )}
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}

function outcomeText(outcome: InviteOutcome, t: Translate): string {
  if (outcome.outcome === 'invited') return t(outcome.mail_sent ? 'invite.result.invited' : 'invite.result.mailNotSent');
  if (outcome.outcome === 'member') return t('invite.result.member');
  return t('invite.result.refused', { reason: outcome.reason });
}

function Outcomes({ actor, onClose }: { actor: InviteActor; onClose: () => void }) {
  const t = useT();
  const { outcomes, sent } = useSelectors(actor, { outcomes: selectOutcomes, sent: selectSent });
  const list = outcomes ?? [];
  const invited = list.filter((outcome) => outcome.outcome === 'invited').length;
  return (
    <>
      <section aria-labelledby={INVITE_RESULT_ID} className="flex min-h-0 flex-col gap-2" data-slot="invite-outcomes">
        <h3 id={INVITE_RESULT_ID} tabIndex={-1} className="text-sm font-semibold outline-none">
          {t('invite.result.title')}
        </h3>
        <p role="status" className="text-sm">
          {t('invite.result.invited', { count: invited })}
        </p>
        <ol className="flex min-h-0 flex-col divide-y overflow-y-auto rounded-md border text-sm">
          {list.map((outcome) => {
            const row = sent[outcome.index];
            return (
              <li key={outcome.index} data-outcome={outcome.outcome} className="flex flex-col gap-0.5 px-3 py-2">
                <span className="break-words">
                  <span className="font-medium">{row?.name ?? outcome.email}</span> · <span className="break-all">{outcome.email}</span>
                </span>
                <span className={outcome.outcome === 'refused' ? 'text-destructive' : 'text-muted-foreground'}>
                  {outcomeText(outcome, t)}
                </span>
              </li>
            );
          })}
        </ol>
      </section>
      <DialogFooter>
        <Button type="button" variant="outline" onClick={() => actor.send({ type: 'invite.again' })}>
          {t('invite.again')}
        </Button>
        <Button type="button" onClick={onClose}>
          {t('invite.close')}
        </Button>
      </DialogFooter>
    </>
  );
}
