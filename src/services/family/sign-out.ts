// Signing out of the families' app: this browser's push subscription undone (while the token still works),
// the token revoked, then everything the device kept for the guardian forgotten (the session, the offline
// copies of messages) whatever the server answered: offline or already revoked, the guardian asked to
// leave, and this device must not stay signed in nor keep what they read.
import { fromPromise } from 'xstate';
import { endSession } from './api';
import { forgetSession } from './device';
import { forgetOfflineCopies } from './offline';
import { dropPushSubscription } from './push';

export const signOut = fromPromise<void, { token: string }>(async ({ input, signal }) => {
  try {
    await dropPushSubscription(input.token);
    await endSession(input.token, signal);
  } catch {
    // See above: nothing to retry.
  } finally {
    forgetSession();
    await forgetOfflineCopies();
  }
});
