// «Cambiar contraseña»: the dialog the account entry opens (decision 0168), loaded with its texts the first
// time it opens. The machine (passwords/change.ts) checks, changes, toasts and closes it.
import {
  CHANGE_CONFIRMATION_ID,
  CHANGE_CURRENT_ID,
  CHANGE_PASSWORD_ID,
  selectChangeConfirmationWrong,
  selectChangeFailure,
  selectCurrent,
  selectCurrentMissing,
  selectCurrentRefusal,
  selectIsChanging,
  selectIsOpen,
  selectNewConfirmation,
  selectNewPassword,
  selectNewPasswordMissing,
  selectNewPasswordReason,
  type ChangePasswordActor,
} from '../../../machines/passwords/change';
import { useT } from '../../lib/i18n';
import { useSelectors } from '../../lib/selectors';
import { Button } from '../../ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '../../ui/dialog';
import { errorProps, FormField } from '../../ui/field';
import { MachineForm } from '../../ui/form';
import { Input } from '../../ui/input';
import { FailureBanner, NewPasswordFields } from './parts';

export function ChangePasswordDialog({ actor }: { actor: ChangePasswordActor }) {
  const t = useT();
  const { open, changing, currentMissing, currentRefusal, reason, missing, confirmationWrong, failure, current, password, confirmation } =
    useSelectors(actor, {
      open: selectIsOpen,
      changing: selectIsChanging,
      currentMissing: selectCurrentMissing,
      currentRefusal: selectCurrentRefusal,
      reason: selectNewPasswordReason,
      missing: selectNewPasswordMissing,
      confirmationWrong: selectChangeConfirmationWrong,
      failure: selectChangeFailure,
      current: selectCurrent,
      password: selectNewPassword,
      confirmation: selectNewConfirmation,
    });
  const currentError = currentRefusal ?? (currentMissing ? t('passwords.fields.currentRequired') : null);
  return (
    <Dialog open={open} onOpenChange={(next) => !next && actor.send({ type: 'password.close' })}>
      <DialogContent aria-busy={changing} className="overflow-y-auto">
        <DialogHeader>
          <DialogTitle>{t('passwords.change.title')}</DialogTitle>
          <DialogDescription>{t('passwords.change.description')}</DialogDescription>
        </DialogHeader>
        <MachineForm onSend={() => actor.send({ type: 'password.submit' })} className="flex flex-col gap-5">
          <FailureBanner failure={failure} />
          <FormField label={t('passwords.change.current')} htmlFor={CHANGE_CURRENT_ID} error={currentError} errorId="change-current-error">
            <Input
              id={CHANGE_CURRENT_ID}
              name="current-password"
              type="password"
              autoComplete="current-password"
              value={current}
              disabled={changing}
              {...errorProps(currentError, 'change-current-error')}
              onChange={(e) => actor.send({ type: 'password.change', field: 'current', value: e.target.value })}
            />
          </FormField>
          <NewPasswordFields
            ids={{ password: CHANGE_PASSWORD_ID, confirmation: CHANGE_CONFIRMATION_ID }}
            labels={{ password: t('passwords.change.password'), confirmation: t('passwords.change.confirmation') }}
            password={password}
            confirmation={confirmation}
            reason={reason}
            missing={missing}
            confirmationWrong={confirmationWrong}
            disabled={changing}
            onChange={(field, value) => actor.send({ type: 'password.change', field, value })}
          />
          <DialogFooter>
            <Button type="button" variant="outline" disabled={changing} onClick={() => actor.send({ type: 'password.close' })}>
              {t('passwords.change.cancel')}
            </Button>
            <Button type="submit" disabled={changing}>
              {changing ? t('passwords.change.submitting') : t('passwords.change.submit')}
            </Button>
          </DialogFooter>
        </MachineForm>
      </DialogContent>
    </Dialog>
  );
}
