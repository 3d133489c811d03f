// The login page's single sign-on buttons and the refusal a provider's sign-in came back with. Its own
// chunk, loaded after the form's first frame (login-page.tsx): the form never waits for it. Each button is
// a plain link to the server, which sends the browser to the school's provider; the e-mail typed so far
// goes along as a hint (it picks the school when several use the same provider).
import type { MouseEvent } from 'react';
import type { SsoProvider } from '../../../../shared/sso-contract';
import {
  selectHasGoogle,
  selectHasMicrosoft,
  selectHasOther,
  selectSsoRefusal,
  ssoMachine,
  ssoStartHref,
  type SsoActor,
} from '../../../machines/session/sso';
import { useT } from '../../lib/i18n';
import { usePageActor, wholeQuery } from '../../lib/page-actor';
import { useSelectors } from '../../lib/selectors';
import { Button } from '../../ui/button';

const LABELS = { google: 'sso.google', microsoft: 'sso.microsoft', other: 'sso.other' } as const;

export function SsoSection({ typedEmail }: { typedEmail: () => string }) {
  const actor = usePageActor(ssoMachine, { input: {}, address: { read: wholeQuery } });
  if (!actor) return null;
  return <SsoButtons actor={actor} typedEmail={typedEmail} />;
}

function SsoButtons({ actor, typedEmail }: { actor: SsoActor; typedEmail: () => string }) {
  const t = useT();
  const { google, microsoft, other, refusal } = useSelectors(actor, {
    google: selectHasGoogle,
    microsoft: selectHasMicrosoft,
    other: selectHasOther,
    refusal: selectSsoRefusal,
  });
  const offered = (['google', 'microsoft', 'other'] as const).filter((p) => ({ google, microsoft, other })[p]);
  // The e-mail typed by the time of the click, not of the render.
  const follow = (provider: SsoProvider) => (e: MouseEvent<HTMLAnchorElement>) => {
    e.currentTarget.href = ssoStartHref(provider, typedEmail());
  };
  if (offered.length === 0 && refusal === null) return null;
  return (
    <div data-slot="sso-section" className="flex flex-col gap-3 pt-5">
      {refusal && (
        <p role="alert" className="rounded-md border border-destructive/40 bg-destructive/5 px-3 py-2 text-sm text-destructive">
          {t(`sso.refusals.${refusal}`)}
        </p>
      )}
      {offered.length > 0 && (
        <>
          <p className="flex items-center gap-3 text-xs text-muted-foreground before:h-px before:flex-1 before:bg-border after:h-px after:flex-1 after:bg-border">
            {t('sso.or')}
          </p>
          {offered.map((provider) => (
            <Button key={provider} asChild variant="outline">
              <a href={ssoStartHref(provider, '')} onClick={follow(provider)}>
                {t(LABELS[provider])}
              </a>
            </Button>
          ))}
        </>
      )}
    </div>
  );
}
