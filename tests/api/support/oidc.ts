// A real OpenID provider for the single sign-on tests (oidc-provider on a free port of 127.0.0.1, never the
// internet), and a browser's walk through it: the test says who the next person to sign in is, and the
// provider's login interaction is finished for them without a form, with their consent already given.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';
import { parseSetCookie } from './server';

export interface TestAccount {
  sub: string;
  email: string;
  email_verified: boolean;
}

export interface TestProvider {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** Who signs in at the provider next. */
  signInAs(account: TestAccount): void;
  /**
   * Follows the provider's redirects from the authorization address as a browser would (keeping its own
   * cookies), through the login interaction, to the address it sends the browser back to.
   */
  walk(authorizationUrl: string): Promise<URL>;
  close(): Promise<void>;
}

export async function startProvider(redirectUri: string): Promise<TestProvider> {
  const clientId = 'hermes-test';
  const clientSecret = 'secreto-de-prueba-que-nunca-debe-salir-por-la-api';
  const accounts = new Map<string, TestAccount>();
  let next: TestAccount | null = null;

  let provider: Provider | null = null;
  const server: Server = createServer((req, res) => {
    const match = req.url?.match(/^\/interaction\/([^/?]+)/);
    if (!provider) throw new Error('proveedor sin iniciar');
    if (!match) return provider.callback()(req, res);
    const active = provider;
    void (async () => {
      const details = await active.interactionDetails(req, res);
      if (details.prompt.name !== 'login' || !next) throw new Error(`interacción inesperada: ${details.prompt.name}`);
      accounts.set(next.sub, next);
      await active.interactionFinished(req, res, { login: { accountId: next.sub } }, { mergeWithLastSubmission: false });
    })().catch((err: unknown) => {
      res.statusCode = 500;
      res.end(String(err));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  provider = new Provider(issuer, {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: [redirectUri],
        response_types: ['code'],
        grant_types: ['authorization_code'],
        token_endpoint_auth_method: 'client_secret_post',
      },
    ],
    findAccount: async (_ctx, id) => {
      const account = accounts.get(id);
      return account && { accountId: id, claims: () => ({ ...account }) };
    },
    claims: { openid: ['sub'], email: ['email', 'email_verified'] },
    // The e-mail in the ID token, as Google and Microsoft put it there.
    conformIdTokenClaims: false,
    cookies: { keys: ['clave-de-cookies-de-prueba'] },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    // Consent is taken as given, as a school's own Workspace or tenant does for its applications.
    loadExistingGrant: async (ctx) => {
      const grant = new ctx.oidc.provider.Grant({ clientId: ctx.oidc.client.clientId, accountId: ctx.oidc.session.accountId });
      grant.addOIDCScope('openid email profile');
      await grant.save();
      return grant;
    },
    features: { devInteractions: { enabled: false } },
    // Short lives, said explicitly (oidc-provider prints a notice for each one left to its default).
    ttl: { Interaction: 600, Session: 600, Grant: 600, AccessToken: 600, IdToken: 600, AuthorizationCode: 60 },
  });

  return {
    issuer,
    clientId,
    clientSecret,
    signInAs: (account) => {
      next = account;
    },
    walk: async (authorizationUrl) => {
      const jar = new Map<string, string>();
      let url = new URL(authorizationUrl);
      for (let hop = 0; hop < 10; hop++) {
        if (url.origin !== issuer) return url;
        const res = await fetch(url, {
          redirect: 'manual',
          headers: { Cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; ') },
        });
        for (const header of res.headers.getSetCookie()) {
          const cookie = parseSetCookie(header);
          jar.set(cookie.name, encodeURIComponent(cookie.value));
        }
        const location = res.headers.get('location');
        if (!location) throw new Error(`el proveedor respondió ${res.status} sin redirección: ${await res.text()}`);
        url = new URL(location, url);
      }
      throw new Error('demasiadas redirecciones en el proveedor');
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
