// Abstract model of composing at /new as the author sees it. Small on purpose and
// independent from src/machines/compose/compose.ts: it states what the screen shows after each thing the author
// does, not how the app gets there. Every simple path is a real browser run, so the model keeps to the
// transitions worth a run: the empty send, the form filled (and surviving a reload), the confirmation
// with its way back, a draft saved from there and the send that ends it all.
import { setup } from 'xstate';

export type ComposeModelEvent =
  | { type: 'compose.submitEmpty' }
  | { type: 'compose.fill' }
  | { type: 'compose.reload' }
  | { type: 'compose.send' }
  | { type: 'compose.cancel' }
  | { type: 'compose.confirm' }
  | { type: 'compose.saveDraft' };

export const composeModel = setup({
  types: { events: {} as ComposeModelEvent },
}).createMachine({
  id: 'composeFlow',
  initial: 'empty',
  states: {
    /** /new with nothing typed, nothing picked, no field flagged. */
    empty: {
      on: { 'compose.submitEmpty': 'invalid' },
    },
    /** "Enviar" on the empty form: the SPEC's texts under title, recipients, channels and content, each
     * field aria-invalid and pointing at its text; nothing asked of the server. */
    invalid: {
      on: { 'compose.fill': 'filled' },
    },
    /** Title, one course picked in the picker dialog, one channel and the text: no field flagged. A reload
     * shows the same form (the local backup). */
    filled: {
      on: {
        'compose.reload': 'filled',
        'compose.send': 'confirming',
      },
    },
    /** The estimate ("Llegará a N personas.") and the confirm dialog; the form is read-only. */
    confirming: {
      on: {
        'compose.cancel': 'backToEditing',
        'compose.confirm': 'sent',
      },
    },
    /** "Volver a editar": the dialog is gone and everything typed is still there, editable. */
    backToEditing: {
      on: { 'compose.saveDraft': 'draftSaved' },
    },
    /** "Mensaje guardado como borrador", the form unchanged; /draft lists it and it reopens with "Editar borrador". */
    draftSaved: {
      on: { 'compose.send': 'confirming' },
    },
    /** "Mensaje enviado correctamente", on /sent/message/:id under the message's title. */
    sent: { type: 'final' },
  },
});

export type ComposeModelState = 'empty' | 'invalid' | 'filled' | 'confirming' | 'backToEditing' | 'draftSaved' | 'sent';
/** Read from the machine itself, so a state added to the model without a check fails the suite. */
export const COMPOSE_MODEL_STATES = Object.keys(composeModel.states) as ComposeModelState[];
