import {
  selectAllowReplies,
  selectCopyToSender,
  selectEmergency,
  selectIsLocked,
  selectOffersEmergency,
} from '../../../machines/compose/selectors';
import { useT } from '../../lib/i18n';
import { useSelectors } from '../../lib/selectors';
import { Checkbox } from '../../ui/checkbox';
import { Label } from '../../ui/label';
import type { ComposeActor } from './field';

const OPTIONS = [
  { option: 'allowReplies', id: 'compose-allow-replies', label: 'compose.options.allowReplies' },
  { option: 'copyToSender', id: 'compose-copy-to-sender', label: 'compose.options.copyToSender' },
] as const;

export function OptionsField({ compose }: { compose: ComposeActor }) {
  const t = useT();
  const { allowReplies, copyToSender, emergency, offersEmergency, locked } = useSelectors(compose, {
    allowReplies: selectAllowReplies,
    copyToSender: selectCopyToSender,
    emergency: selectEmergency,
    offersEmergency: selectOffersEmergency,
    locked: selectIsLocked,
  });
  return (
    <fieldset className="flex flex-col gap-2">
      <legend className="mb-2 text-sm font-medium">{t('compose.options.label')}</legend>
      <div className="flex flex-wrap gap-x-6 gap-y-2">
        {OPTIONS.map(({ option, id, label }) => (
          <div key={option} className="flex items-center gap-2">
            <Checkbox
              id={id}
              checked={option === 'allowReplies' ? allowReplies : copyToSender}
              disabled={locked}
              onCheckedChange={() => compose.send({ type: 'compose.toggleOption', option })}
            />
            <Label htmlFor={id}>{t(label)}</Label>
          </div>
        ))}
      </div>
      {/* The "Emergencia" mark: it may spend the SMS the school keeps in reserve. */}
      {offersEmergency && (
        <div data-slot="emergency-option" className="flex items-start gap-2 rounded-md border border-dashed px-3 py-2">
          <Checkbox
            id="compose-emergency"
            className="-mt-0.5"
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
