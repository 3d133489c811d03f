import type { MessageKey } from '../../i18n';
import { useT } from '../lib/i18n';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../ui/card';

/** Honest placeholder for screens that later issues build. */
export function ComingSoon({ titleKey, bodyKey }: { titleKey: MessageKey; bodyKey?: MessageKey }) {
  const t = useT();
  return (
    <section aria-labelledby="page-title" className="mx-auto max-w-3xl">
      <Card>
        <CardHeader>
          <CardTitle id="page-title">{t(titleKey)}</CardTitle>
          <CardDescription>{bodyKey ? t(bodyKey, { guardians: t('terms.guardians') }) : t('app.comingSoonBody')}</CardDescription>
        </CardHeader>
        <CardContent>
          <p className="inline-flex rounded-full bg-secondary px-3 py-1 text-xs font-medium text-secondary-foreground">
            {t('app.comingSoon')}
          </p>
        </CardContent>
      </Card>
    </section>
  );
}
