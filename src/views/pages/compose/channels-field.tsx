import { useSelector } from '@xstate/react';
import type { ChannelCode } from '../../../../shared/codes';
import { channelFieldId } from '../../../machines/compose/rules';
import { selectAvailableChannels, selectHasChannel, selectIsLocked } from '../../../machines/compose/selectors';
import { useT } from '../../lib/i18n';
import { useSelectors } from '../../lib/selectors';
import { Checkbox } from '../../ui/checkbox';
import { describedBy, FieldDescription, FieldError } from '../../ui/field';
import { Label } from '../../ui/label';
import { useFieldError, type ComposeActor } from './field';

export function ChannelsField({ compose }: { compose: ComposeActor }) {
  const t = useT();
  const available = useSelector(compose, selectAvailableChannels);
  const error = useFieldError(compose, 'channels');
  return (
    <fieldset aria-describedby={describedBy('compose-channels-hint', error.text && error.id)} className="flex flex-col gap-2">
      <legend className="mb-2 text-sm font-medium">{t('compose.field.channels')}</legend>
      {available.length === 0 ? (
        <p role="alert" className="text-sm text-destructive">
          {t('compose.field.channelsNone')}
        </p>
      ) : (
        <div className="flex flex-wrap gap-x-6 gap-y-2">
          {available.map((code) => (
            <ChannelToggle key={code} compose={compose} code={code} invalid={Boolean(error.text)} />
          ))}
        </div>
      )}
      {available.length > 0 && available.length < 4 && (
        <FieldDescription id="compose-channels-hint">{t('compose.field.channelsHint')}</FieldDescription>
      )}
      <FieldError id={error.id}>{error.text}</FieldError>
    </fieldset>
  );
}

function ChannelToggle({ compose, code, invalid }: { compose: ComposeActor; code: ChannelCode; invalid: boolean }) {
  const t = useT();
  const { checked, locked } = useSelectors(compose, { checked: (s) => selectHasChannel(s, code), locked: selectIsLocked });
  const id = channelFieldId(code);
  return (
    <div className="flex items-center gap-2">
      <Checkbox
        id={id}
        checked={checked}
        disabled={locked}
        aria-invalid={invalid || undefined}
        onCheckedChange={() => compose.send({ type: 'compose.toggleChannel', code })}
      />
      <Label htmlFor={id}>{t(`messages.channel.${code}`)}</Label>
    </div>
  );
}
