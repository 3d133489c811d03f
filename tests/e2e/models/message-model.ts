// Abstract model of a received message's lifecycle as its reader sees it from the reading view
// (docs/decisions/0025-message-lifecycle-is-one-rule-table.md and
// 0026-trash-remembers-folder-and-date.md). Independent from
// src/machines/messages/lifecycle.ts: it states what the user observes after each action — the unread
// counter, the toasts, which folder lists the message and which actions the view offers.
import { setup } from 'xstate';

export type MessageModelEvent =
  | { type: 'message.open' }
  | { type: 'message.delete' }
  | { type: 'message.openInTrash' }
  | { type: 'message.restore' }
  | { type: 'message.purge' }
  | { type: 'message.cancel' }
  /** Escape while asked: the same as "Cancelar". */
  | { type: 'message.escape' }
  | { type: 'message.confirm' };

export const messageModel = setup({
  types: { events: {} as MessageModelEvent },
}).createMachine({
  id: 'messageFlow',
  initial: 'unread',
  states: {
    /** A colleague's message, new in /inbox: listed with the unread mark, counted in the sidebar. */
    unread: {
      on: { 'message.open': 'reading' },
    },
    /** Opened from /inbox: its title, "Responder" (replies allowed) and "Eliminar"; read, so the sidebar
     * counts one unread less than before it was first opened. */
    reading: {
      on: { 'message.delete': 'trashed' },
    },
    /** "Mensaje eliminado", back on /inbox, which no longer lists it. */
    trashed: {
      on: { 'message.openInTrash': 'readingInTrash' },
    },
    /** Opened from /trash: "Restaurar" and "Eliminar definitivamente", no reply, no plain delete. Back from the
     * purge question, keyboard focus is on "Eliminar definitivamente" again, not lost. */
    readingInTrash: {
      on: {
        'message.restore': 'restored',
        'message.purge': 'confirmingPurge',
      },
    },
    /** "¿Eliminar definitivamente?" asked first, with "Eliminar definitivamente" and "Cancelar". */
    confirmingPurge: {
      on: {
        'message.cancel': 'readingInTrash',
        'message.escape': 'readingInTrash',
        'message.confirm': 'purged',
      },
    },
    /** "Mensaje restaurado", back on /trash without it; /inbox lists it again, read. */
    restored: {
      on: { 'message.open': 'reading' },
    },
    /** "Mensaje eliminado definitivamente": in no folder any more, and its address is a 404. */
    purged: { type: 'final' },
  },
});

export type MessageModelState = 'unread' | 'reading' | 'trashed' | 'readingInTrash' | 'confirmingPurge' | 'restored' | 'purged';
/** Read from the machine itself, so a state added to the model without a check fails the suite. */
export const MESSAGE_MODEL_STATES = Object.keys(messageModel.states) as MessageModelState[];
