// /settings/sso (docs/decisions/0175): the school's OpenID provider for «Ingresar con Google / Microsoft»:
// kind, issuer, client id, a new client secret (never shown: the form says whether one is stored), the
// allowed e-mail domain, on/off, and the redirect URI to register at the provider. The machine
// (settings/sso.ts) loads, saves, puts the server's Spanish errors on their fields and toasts.
import { SSO_PROVIDERS } from '../../../../shared/sso-contract';
import {
  selectEnabled,
  selectError,
  selectFailed,
  selectHasSecret,
  selectLoadFailed,
  selectLoading,
  selectProvider,
  selectRedirectUri,
  selectSaving,
  selectValue,
  settingsSsoMachine,
  type SettingsSsoActor,
  type SsoField,
} from '../../../machines/settings/sso';
import type { MessageKey } from '../../../i18n';
import { useT } from '../../lib/i18n';
import { usePageActor } from '../../lib/page-actor';
import { useSelector } from '@xstate/react';
import { useSelectors } from '../../lib/selectors';
import { Button } from '../../ui/button';
import { Card, CardContent } from '../../ui/card';
import { errorProps, FieldDescription, FormField } from '../../ui/field';
import { MachineForm } from '../../ui/form';
import { Input } from '../../ui/input';
import { Label } from '../../ui/label';
import { ListFailure, ListSkeleton } from '../../ui/list-state';
import { NativeSelect } from '../../ui/native-select';
import { Switch } from '../../ui/switch';
import { SettingsShell } from './shell';

export function SettingsSsoPage() {
  const actor = usePageActor(settingsSsoMachine, { input: undefined });
  const t = useT();
  return <SettingsShell>{actor ? <SsoScreen actor={actor} /> : <ListSkeleton label={t('ssoSettings.loading')} rows={4} />}</SettingsShell>;
}

function SsoScreen({ actor }: { actor: SettingsSsoActor }) {
  const t = useT();
  const { loading, loadFailed } = useSelectors(actor, { loading: selectLoading, loadFailed: selectLoadFailed });
  if (loading) return <ListSkeleton label={t('ssoSettings.loading')} rows={4} />;
  if (loadFailed)
    return (
      <ListFailure
        message={t('ssoSettings.loadFailed')}
        retryLabel={t('ssoSettings.retry')}
        onRetry={() => actor.send({ type: 'sso.retry' })}
      />
    );
  return (
    <Card>
      <CardContent>
        <SsoForm actor={actor} />
      </CardContent>
    </Card>
  );
}

function SsoForm({ actor }: { actor: SettingsSsoActor }) {
  const t = useT();
  const { saving, failed } = useSelectors(actor, { saving: selectSaving, failed: selectFailed });
  return (
    <MachineForm aria-busy={saving} className="flex flex-col gap-5" onSend={() => actor.send({ type: 'sso.save' })}>
      <p className="text-sm text-muted-foreground">{t('ssoSettings.intro')}</p>
      <ProviderField actor={actor} />
      <TextField actor={actor} field="issuer" label="ssoSettings.issuer" help="ssoSettings.issuerHelp" type="url" />
      <TextField actor={actor} field="client_id" label="ssoSettings.clientId" />
      <SecretField actor={actor} />
      <TextField actor={actor} field="domain" label="ssoSettings.domain" help="ssoSettings.domainHelp" />
      <EnabledField actor={actor} />
      <RedirectUri actor={actor} />
      {failed && (
        <p role="alert" className="rounded-md border border-destructive/40 bg-destructive/5 p-3 text-sm text-destructive">
          {t('ssoSettings.failed')}
        </p>
      )}
      <div>
        {/* Never `disabled`: focus stays on it through the save. */}
        <Button type="submit" aria-disabled={saving || undefined} className="aria-disabled:opacity-50">
          {saving ? t('ssoSettings.saving') : t('ssoSettings.save')}
        </Button>
      </div>
    </MachineForm>
  );
}

function ProviderField({ actor }: { actor: SettingsSsoActor }) {
  const t = useT();
  const provider = useSelector(actor, selectProvider);
  const error = useSelector(actor, selectError('provider'));
  return (
    <FormField label={t('ssoSettings.provider')} htmlFor="sso-provider" error={error} errorId="sso-provider-error">
      <NativeSelect
        id="sso-provider"
        value={provider}
        {...errorProps(error, 'sso-provider-error')}
        onChange={(e) => {
          const chosen = SSO_PROVIDERS.find((p) => p === e.target.value);
          if (chosen) actor.send({ type: 'sso.provider', provider: chosen });
        }}
      >
        {SSO_PROVIDERS.map((p) => (
          <option key={p} value={p}>
            {t(`ssoSettings.providers.${p}`)}
          </option>
        ))}
      </NativeSelect>
    </FormField>
  );
}

// Selectors made once per field, outside render: the same function on every render.
const VALUE = {
  issuer: selectValue('issuer'),
  client_id: selectValue('client_id'),
  client_secret: selectValue('client_secret'),
  domain: selectValue('domain'),
};
const ERROR = {
  issuer: selectError('issuer'),
  client_id: selectError('client_id'),
  client_secret: selectError('client_secret'),
  domain: selectError('domain'),
};

function TextField({
  actor,
  field,
  label,
  help,
  type = 'text',
}: {
  actor: SettingsSsoActor;
  field: Exclude<SsoField, 'client_secret'>;
  label: MessageKey;
  help?: MessageKey;
  type?: 'text' | 'url';
}) {
  const t = useT();
  const value = useSelector(actor, VALUE[field]);
  const error = useSelector(actor, ERROR[field]);
  const id = `sso-${field}`;
  return (
    <FormField label={t(label)} htmlFor={id} error={error} errorId={`${id}-error`}>
      {help && <FieldDescription id={`${id}-help`}>{t(help)}</FieldDescription>}
      <Input
        id={id}
        type={type}
        value={value}
        autoComplete="off"
        spellCheck={false}
        {...errorProps(error, `${id}-error`, help && `${id}-help`)}
        onChange={(e) => actor.send({ type: 'sso.edit', field, value: e.target.value })}
      />
    </FormField>
  );
}

function SecretField({ actor }: { actor: SettingsSsoActor }) {
  const t = useT();
  const value = useSelector(actor, VALUE.client_secret);
  const error = useSelector(actor, ERROR.client_secret);
  const stored = useSelector(actor, selectHasSecret);
  return (
    <FormField label={t('ssoSettings.clientSecret')} htmlFor="sso-secret" error={error} errorId="sso-secret-error">
      <FieldDescription id="sso-secret-help">{t(stored ? 'ssoSettings.secretStored' : 'ssoSettings.secretMissing')}</FieldDescription>
      <Input
        id="sso-secret"
        type="password"
        value={value}
        autoComplete="new-password"
        {...errorProps(error, 'sso-secret-error', 'sso-secret-help')}
        onChange={(e) => actor.send({ type: 'sso.edit', field: 'client_secret', value: e.target.value })}
      />
    </FormField>
  );
}

function EnabledField({ actor }: { actor: SettingsSsoActor }) {
  const t = useT();
  const enabled = useSelector(actor, selectEnabled);
  return (
    <div className="flex items-center gap-3">
      <Switch id="sso-enabled" checked={enabled} onCheckedChange={(checked) => actor.send({ type: 'sso.toggle', enabled: checked })} />
      <Label htmlFor="sso-enabled">{t('ssoSettings.enabled')}</Label>
    </div>
  );
}

function RedirectUri({ actor }: { actor: SettingsSsoActor }) {
  const t = useT();
  const uri = useSelector(actor, selectRedirectUri);
  return (
    <div className="flex flex-col gap-1">
      <p className="text-sm font-medium">{t('ssoSettings.redirectUri')}</p>
      <code data-testid="sso-redirect-uri" className="rounded-md bg-muted p-2 text-sm break-all">
        {uri}
      </code>
    </div>
  );
}
