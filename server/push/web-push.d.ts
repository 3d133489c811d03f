// The little of web-push (which ships no types) that the push channel uses (node_modules/web-push/src).
declare module 'web-push' {
  import type { Agent } from 'node:https';

  interface PushSubscription {
    endpoint: string;
    keys: { p256dh: string; auth: string };
  }

  interface RequestOptions {
    vapidDetails: { subject: string; publicKey: string; privateKey: string };
    /** Seconds the push service keeps the message while the browser is away. */
    TTL?: number;
    urgency?: 'very-low' | 'low' | 'normal' | 'high';
    /** A newer push with the same topic replaces one still waiting (base64url, at most 32 characters). */
    topic?: string;
    /** Milliseconds before the request is given up. */
    timeout?: number;
    agent?: Agent;
  }

  /** A push service's answer outside 2xx. */
  class WebPushError extends Error {
    statusCode: number;
    headers: Record<string, string>;
    body: string;
    endpoint: string;
  }

  function sendNotification(
    subscription: PushSubscription,
    payload: string | Buffer,
    options: RequestOptions,
  ): Promise<{ statusCode: number; body: string; headers: Record<string, string> }>;

  function generateVAPIDKeys(): { publicKey: string; privateKey: string };

  const webPush: {
    sendNotification: typeof sendNotification;
    generateVAPIDKeys: typeof generateVAPIDKeys;
    WebPushError: typeof WebPushError;
  };
  export default webPush;
}
