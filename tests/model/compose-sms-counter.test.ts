// Compose's SMS counter with merge fields, through the real compose actor and its real picker (one scripted
// path; the machine's model-based paths are tests/model/compose.test.ts): until the recipients load, a field
// counts as written; then at its longest value among the picked people (src/machines/compose/merge-rules.ts);
// the picks change it; a text the placeholder alone would make too long is not refused by the client, and
// the estimate's refusal naming the field lands on the content.
import { createActor } from 'xstate';
import { describe, expect, it } from 'vitest';
import { selectError, selectSmsFields, selectSmsLimit, selectSmsOk, selectSmsUnits } from '../../src/machines/compose/selectors';
import type { ComposeStart } from '../../src/services/compose/compose';
import type { RecipientPick } from '../../shared/compose-contract';
import { smsText } from '../../shared/sms-text';
import { composeBackup, composeSetup } from '../fixtures/compose';
import { thirdGrade } from '../fixtures/recipients';
import { composeWithRealChildren } from './doubles';
import { Fakes, flush } from './harness';
import { failure } from './fixtures';

const COURSE: RecipientPick = { kind: 'course', id: 10, audience: 'apoderados', label: '3° Básico A' };
const CONTENT = 'Apoderado/a {apoderado}: {estudiante} tiene reunión.';

describe('compose’s SMS counter with merge fields', () => {
  it('counts fields as written, then at their longest value among the picked recipients', async () => {
    const fakes = new Fakes();
    const actor = createActor(composeWithRealChildren(fakes), {
      input: { draftId: null, replyToId: null, backupKey: 'compose:merge:new' },
    }).start();
    const start: ComposeStart = {
      setup: composeSetup(),
      draft: null,
      backup: composeBackup({ content: CONTENT, channels: ['sms'], recipients: [COURSE] }),
      reply: null,
    };
    fakes.resolve('loadCompose', start);
    await flush();
    const counter = () => {
      const s = actor.getSnapshot();
      return { units: selectSmsUnits(s), limit: selectSmsLimit(s), ok: selectSmsOk(s), fields: selectSmsFields(s) };
    };

    // Recipients not loaded yet: the fields count as written ("{x}": braces are two units each).
    expect(counter()).toEqual({
      units: smsText(CONTENT, 'CSA').units,
      limit: 154,
      ok: true,
      fields: [
        { field: 'apoderado', value: '{apoderado}', units: 13 },
        { field: 'estudiante', value: '{estudiante}', units: 14 },
      ],
    });

    // 3° Básico A's guardians: José Muñoz Pérez and Ana Rojas Soto (Sofía's), Raúl Núñez Vera (Tomás's).
    fakes.resolve('loadRecipients', thirdGrade());
    await flush();
    actor.send({ type: 'compose.change', field: 'content', value: CONTENT });
    expect(counter()).toEqual({
      units: smsText('Apoderado/a José Muñoz Pérez: Sofía tiene reunión.', 'CSA').units,
      limit: 154,
      ok: true,
      fields: [
        { field: 'apoderado', value: 'José Muñoz Pérez', units: 16 },
        { field: 'estudiante', value: 'Sofía', units: 5 },
      ],
    });
    // The same array while nothing changes (one useSelector, no re-render).
    expect(selectSmsFields(actor.getSnapshot())).toBe(selectSmsFields(actor.getSnapshot()));

    // Only the suplentes: Ana Rojas Soto is the longest (and only) guardian.
    actor.send({ type: 'picker.confirmed', picks: [{ ...COURSE, audience: 'suplentes' }] });
    expect(counter().fields[0]).toEqual({ field: 'apoderado', value: 'Ana Rojas Soto', units: 14 });

    // 149 a's and {estudiante}: 163 units as written, 154 with "Sofía": allowed, and sent to the estimate.
    actor.send({ type: 'picker.confirmed', picks: [COURSE] });
    const atLimit = `${'a'.repeat(149)}{estudiante}`;
    actor.send({ type: 'compose.change', field: 'content', value: atLimit });
    expect(smsText(atLimit, 'CSA').ok).toBe(false);
    expect(counter()).toMatchObject({ units: 154, ok: true });
    actor.send({ type: 'compose.change', field: 'title', value: 'Reunión' });
    actor.send({ type: 'compose.send' });
    expect(selectError(actor.getSnapshot(), 'content')).toBeUndefined();
    expect(actor.getSnapshot().matches('estimating')).toBe(true);

    // The estimate knows every recipient (a saved list's too) and refuses naming the field: on the content.
    const refusal =
      'El SMS supera los 154 caracteres permitidos para el destinatario con el valor más largo de {estudiante} («Maximiliano», 11 caracteres): tendría 160. Acórtalo o quita el canal SMS.';
    fakes.reject('estimate', failure(422, 'validation.failed', 'Revisa los campos.', { content: [refusal] }));
    await flush();
    expect(actor.getSnapshot().value).toEqual({ form: 'editing' });
    expect(selectError(actor.getSnapshot(), 'content')).toEqual({ key: 'compose.errors.server', params: { message: refusal } });

    // One more character is too long for Sofía's guardians already: the counter says so before sending.
    actor.send({ type: 'compose.change', field: 'content', value: `a${atLimit}` });
    expect(counter()).toMatchObject({ units: 155, ok: false });
    actor.stop();
  });

  it('keeps each compose’s counter to itself when two are read in turn', async () => {
    const open = async (key: string, content: string) => {
      const fakes = new Fakes();
      const actor = createActor(composeWithRealChildren(fakes), { input: { draftId: null, replyToId: null, backupKey: key } }).start();
      fakes.resolve('loadCompose', {
        setup: composeSetup(),
        draft: null,
        backup: composeBackup({ content, channels: ['sms'], recipients: [COURSE] }),
        reply: null,
      } satisfies ComposeStart);
      await flush();
      fakes.resolve('loadRecipients', thirdGrade());
      await flush();
      return actor;
    };
    // Two composes with the same start (an empty form's picks are one shared constant) and other texts.
    const guardians = await open('compose:merge:a', 'Apoderado/a {apoderado}: reunión.');
    const students = await open('compose:merge:b', 'Hola {estudiante}.');
    const mine = selectSmsFields(guardians.getSnapshot());
    const theirs = selectSmsFields(students.getSnapshot());
    expect(mine).toEqual([{ field: 'apoderado', value: 'José Muñoz Pérez', units: 16 }]);
    expect(theirs).toEqual([{ field: 'estudiante', value: 'Sofía', units: 5 }]);
    for (let turn = 0; turn < 3; turn++) {
      expect(selectSmsFields(guardians.getSnapshot())).toBe(mine);
      expect(selectSmsFields(students.getSnapshot())).toBe(theirs);
    }
    // Another change of the form (the title) leaves the counter's array as it was.
    guardians.send({ type: 'compose.change', field: 'title', value: 'Reunión' });
    expect(selectSmsFields(guardians.getSnapshot())).toBe(mine);
    guardians.stop();
    students.stop();
  });
});
