// The little of oidc-provider (which ships no types) that the tests' local OpenID provider uses.
declare module 'oidc-provider' {
  import type { IncomingMessage, ServerResponse } from 'node:http';

  interface Grant {
    addOIDCScope(scope: string): void;
    save(): Promise<string>;
  }

  interface Context {
    oidc: { client: { clientId: string }; session: { accountId: string }; provider: Provider };
  }

  interface Account {
    accountId: string;
    claims(): Promise<Record<string, unknown>> | Record<string, unknown>;
  }

  interface Configuration {
    clients: Record<string, unknown>[];
    findAccount(ctx: Context, id: string): Promise<Account | undefined>;
    claims?: Record<string, string[]>;
    conformIdTokenClaims?: boolean;
    cookies?: { keys: string[] };
    interactions?: { url(ctx: Context, interaction: { uid: string }): string };
    loadExistingGrant?(ctx: Context): Promise<Grant | undefined>;
    features?: Record<string, { enabled: boolean }>;
    ttl?: Record<string, number>;
  }

  export default class Provider {
    constructor(issuer: string, configuration: Configuration);
    Grant: new (options: {
      clientId: string;
      accountId: string;
    }) => Grant;
    callback(): (req: IncomingMessage, res: ServerResponse) => void;
    interactionDetails(req: IncomingMessage, res: ServerResponse): Promise<{ uid: string; prompt: { name: string } }>;
    interactionFinished(req: IncomingMessage, res: ServerResponse, result: Record<string, unknown>, options?: object): Promise<void>;
  }
}
