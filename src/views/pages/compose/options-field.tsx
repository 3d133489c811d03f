import { useSelector } from '@xstate/react';
import { selectAllowReplies, selectCopyToSender, selectEmergency, selectIsLocked, selectOffersEmergency } from '../../../machines/compose/selectors';
import { useT } from '../../lib/i18n';
import { Checkbox } from '../../ui/checkbox';
import { Label } from '../../ui/label';
import type { ComposeActor } from './field';

export function OptionsField({ compose }: { compose: ComposeActor }) {
  const t = useT();
  const allowReplies = useSelector(compose, selectAllowReplies);
  const copyToSender = useSelector(compose, selectCopyToSender);
  const emergency = useSelector(compose, selectEmergency);
  const offersEmergency = useSelector(compose, selectOffersEmergency);
  const locked = useSelector(compose, selectIsLocked);
  return (
    <fieldset className="flex flex-col gap-2">
      <legend className="mb-2 text-sm font-medium">{t('compose.options.label')}</legend>
      <div className="flex flex-wrap gap-x-6 gap-y-2">
        <div className="flex items-center gap-2">
          <Checkbox
            id="compose-allow-replies"
            checked={allowReplies}
            disabled={locked}
            onCheckedChange={() => compose.send({ type: 'compose.toggleOption', option: 'allowReplies' })}
          />
          <Label htmlFor="compose-allow-replies">{t('compose.options.allowReplies')}</Label>
        </div>
        <div className="flex items-center gap-2">
          <Checkbox
            id="compose-copy-to-sender"
            checked={copyToSender}
            disabled={locked}
            onCheckedChange={() => compose.send({ type: 'compose.toggleOption', option: 'copyToSender' })}
          />
          <Label htmlFor="compose-copy-to-sender">{t('compose.options.copyToSender')}</Label>
        </div>
      </div>
      {/* The "Emergencia" mark (issue 15): it may spend the SMS the school keeps in reserve. */}
      {offersEmergency && (
        <div data-slot="emergency-option" className="flex items-start gap-2 rounded-md border border-dashed px-3 py-2">
          <Checkbox
            id="compose-emergency"
            className="mt-0.5"
            checked={emergency}
            disabled={locked}
            aria-describedby="compose-emergency-hint"
            onCheckedChange={() => compose.send({ type: 'compose.toggleEmergency' })}
          />
          <div className="flex min-w-0 flex-col gap-0.5">
            <Label htmlFor="compose-emergency" className="font-medium">
              {t('compose.options.emergency')}
            </Label>
            <p id="compose-emergency-hint" className="text-xs text-muted-foreground">
              {t('compose.options.emergencyHint')}
            </p>
          </div>
        </div>
      )}
    </fieldset>
  );
}
