import { Suspense, useEffect, useRef, useState, type FormEvent } from 'react';
import { Link } from 'wouter';
import { selectEmailError, selectIsSubmitting, selectLoginError, selectPasswordError } from '../../../machines/session/selectors';
import { sessionActor } from '../../actors';
import { useT } from '../../lib/i18n';
import { Button } from '../../ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../ui/card';
import { errorProps, FormField } from '../../ui/field';
import { Input } from '../../ui/input';
import { LocaleSelect } from '../../layout/locale-select';
import { useSelectors } from '../../lib/selectors';
import { screen } from '../../lazy-screen';

// Single sign-on's buttons: their own chunk and texts, asked after the form's first frame (below).
const SsoSection = screen(() => import('./sso-section').then((m) => m.SsoSection), ['session/sso']);

/** True from the frame after the first one: what the form must never wait for starts then. */
function useAfterFirstFrame(): boolean {
  const [after, setAfter] = useState(false);
  useEffect(() => {
    // A frame callback runs before that frame is painted; the task it queues runs after.
    let timer: ReturnType<typeof setTimeout> | undefined;
    const frame = requestAnimationFrame(() => {
      timer = setTimeout(() => setAfter(true), 0);
    });
    return () => {
      cancelAnimationFrame(frame);
      clearTimeout(timer);
    };
  }, []);
  return after;
}

export function LoginPage() {
  const t = useT();
  const { loginError, emailError, passwordError, submitting } = useSelectors(sessionActor, {
    loginError: selectLoginError,
    emailError: selectEmailError,
    passwordError: selectPasswordError,
    submitting: selectIsSubmitting,
  });
  // Purely visual: whether the password characters are shown.
  const [reveal, setReveal] = useState(false);
  const form = useRef<HTMLFormElement>(null);
  const afterFirstFrame = useAfterFirstFrame();
  const typedEmail = () => (form.current ? String(new FormData(form.current).get('email') ?? '') : '');

  function onSubmit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    sessionActor.send({
      type: 'session.login',
      email: String(form.get('email') ?? ''),
      password: String(form.get('password') ?? ''),
    });
  }

  return (
    <main id="main" className="flex min-h-dvh items-center justify-center p-4">
      <div className="flex w-full max-w-sm flex-col gap-4">
        <p className="text-center text-2xl font-bold text-primary">{t('app.name')}</p>
        <Card>
          <CardHeader>
            <CardTitle>{t('login.title')}</CardTitle>
            <CardDescription>{t('login.subtitle')}</CardDescription>
          </CardHeader>
          <CardContent>
            {/* noValidate: our own Spanish messages replace the browser's. */}
            <form ref={form} noValidate onSubmit={onSubmit} className="flex flex-col gap-5" aria-busy={submitting}>
              {loginError && (
                <p
                  role="alert"
                  data-slot="form-error"
                  className="rounded-md border border-destructive/40 bg-destructive/5 px-3 py-2 text-sm text-destructive"
                >
                  {t(loginError)}
                </p>
              )}
              <FormField label={t('login.email')} htmlFor="login-email" error={emailError && t(emailError)} errorId="login-email-error">
                <Input
                  id="login-email"
                  name="email"
                  type="email"
                  autoComplete="username"
                  inputMode="email"
                  autoFocus
                  {...errorProps(emailError, 'login-email-error')}
                  onChange={() => emailError && sessionActor.send({ type: 'session.edit', field: 'email' })}
                />
              </FormField>
              <FormField
                label={t('login.password')}
                htmlFor="login-password"
                error={passwordError && t(passwordError)}
                errorId="login-password-error"
              >
                <div className="flex gap-2">
                  <Input
                    id="login-password"
                    name="password"
                    type={reveal ? 'text' : 'password'}
                    autoComplete="current-password"
                    {...errorProps(passwordError, 'login-password-error')}
                    onChange={() => passwordError && sessionActor.send({ type: 'session.edit', field: 'password' })}
                  />
                  <Button
                    type="button"
                    variant="outline"
                    size="sm"
                    className="h-9"
                    aria-pressed={reveal}
                    onClick={() => setReveal((v) => !v)}
                  >
                    {reveal ? t('login.hidePassword') : t('login.showPassword')}
                  </Button>
                </div>
              </FormField>
              <Button type="submit" disabled={submitting}>
                {submitting ? t('login.submitting') : t('login.submit')}
              </Button>
            </form>
            <Link href="/forgot-password" className="mt-4 block text-center text-sm text-primary underline-offset-4 hover:underline">
              {t('login.forgot')}
            </Link>
            {afterFirstFrame && (
              <Suspense fallback={null}>
                <SsoSection typedEmail={typedEmail} />
              </Suspense>
            )}
          </CardContent>
        </Card>
        <div className="flex justify-center">
          <LocaleSelect />
        </div>
      </div>
    </main>
  );
}
