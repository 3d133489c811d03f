// Compose's submission (compose/compose.ts's header tells the flow): compose.send / compose.schedule checked by
// the client rules, then `estimating` (the server's rules, cost and quota), `confirming` (the author sees
// the cost) and `sending` | `scheduling`, written once here and placed by compose/compose.ts at its root, as
// compose/leaving.ts does for the draft save. Their actions and guards are compose/actions.ts's.
import { and } from 'xstate';
import type { Estimate, SendResult } from '../../../shared/compose-contract';
import type { ComposeContext } from './compose';
import { TOAST_REVIEW, TOAST_SEND_FAILED } from './actions';
import { ASK_BEFORE_LEAVING } from './leaving';
import { composeInputOf, type ComposeIntent } from './rules';

/**
 * compose.send / compose.schedule: the client rules first. Refused, the form shows why (from `failed`,
 * back in editing); allowed, the server's estimate, under the key of this message.
 */
export const attempt = (intent: ComposeIntent, refusedTarget?: 'editing') =>
  [
    {
      guard: and(['canReach', { type: 'isValid', params: intent }]),
      target: '#compose.estimating',
      actions: [{ type: 'intend', params: intent }, 'clearErrors', 'ensureKey'],
    },
    { guard: 'canReach', target: refusedTarget, actions: [{ type: 'intend', params: intent }, 'showErrors', TOAST_REVIEW, 'focusFirstError'] },
  ] as const;

/** An estimate in: kept (errors from its problems), and the picker told its people count. */
const ESTIMATED = [
  { type: 'keepEstimate', params: ({ event }: { event: { output: Estimate } }) => event.output },
  { type: 'reportEstimate', params: ({ event }: { event: { output: Estimate } }) => event.output },
] as const;

/** The server's check and cost of what was asked (`intent`): a refusal or a problem back to the form, else the confirmation. */
export const estimating = {
  tags: ['busy', 'submitting'],
  invoke: {
    id: 'estimate',
    src: 'estimate',
    input: ({ context }: { context: ComposeContext }) => ({ input: composeInputOf(context, context.intent), draftId: context.draftId, replyToId: context.replyToId }),
    onDone: [
      // Nobody picked has an address on the chosen channels: there is nothing to confirm, and no
      // send is offered until the form changes (`canReach`).
      {
        guard: { type: 'reachesNobody', params: ({ event }: { event: { output: Estimate } }) => event.output },
        target: 'form.editing',
        actions: [...ESTIMATED, 'toastReach'],
      },
      {
        guard: { type: 'hasProblems', params: ({ event }: { event: { output: Estimate } }) => event.output },
        target: 'form.editing',
        actions: [...ESTIMATED, 'toastQuota'],
      },
      { target: 'confirming', actions: ESTIMATED },
    ],
    onError: [
      // Send's own rules refused it (an SMS too long once signed, an emoji…): the field says why and
      // takes the focus, as when the client rules refuse.
      { guard: 'isValidationFailure', target: 'form.editing', actions: ['serverFieldErrors', TOAST_REVIEW, 'focusFirstError'] },
      { target: 'form.failed', actions: ['keepFailure', 'forgetEstimate', TOAST_SEND_FAILED] },
    ],
  },
} as const;

// The cost before it is spent, shown before sending: people reached, deliveries per
// channel, addresses missing, SMS used of those left this month, empty courses. Nothing is sent
// until the author confirms; going back keeps the form, the estimate and the key.
export const confirming = {
  on: {
    'compose.confirm': [{ guard: 'isScheduling', target: 'scheduling' }, { target: 'sending' }],
    // Back to the form with keyboard focus on the button that asked, not lost with the confirmation.
    'compose.cancel': { target: 'form.editing', actions: 'focusSubmit' },
    'page.leave': ASK_BEFORE_LEAVING,
  },
} as const;

/**
 * `sending` and `scheduling`: the same call with the same key, the same outcomes; only the actor and what
 * is sent differ (the toast says which it was, and who nothing reaches). A 422 or a quota refusal goes
 * back to the form with the fields marked; anything else is `form.failed`, where retry keeps everything.
 */
const dispatching = (src: 'sendMessage' | 'scheduleMessage', intent: ComposeIntent) =>
  ({
    tags: ['busy', 'submitting'],
    invoke: {
      id: src,
      src,
      input: ({ context }: { context: ComposeContext }) => ({
        input: composeInputOf(context, intent),
        draftId: context.draftId,
        replyToId: context.replyToId,
        idempotencyKey: context.idempotencyKey as string,
      }),
      onDone: {
        target: 'sent',
        actions: [
          { type: 'keepResult', params: ({ event }: { event: { output: SendResult } }) => event.output },
          'toastResult',
          'navigateToResult',
          'clearBackup',
          'announceCounts',
        ],
      },
      onError: [
        { guard: 'isValidationFailure', target: 'form.editing', actions: ['serverFieldErrors', TOAST_REVIEW, 'focusFirstError'] },
        { guard: 'isQuotaFailure', target: 'form.editing', actions: ['serverQuotaErrors', 'toastQuota'] },
        { target: 'form.failed', actions: ['keepFailure', TOAST_SEND_FAILED] },
      ],
    },
  }) as const;

export const sending = dispatching('sendMessage', 'send');
export const scheduling = dispatching('scheduleMessage', 'schedule');
