import { AccountMessages, ErrorCode, PASSWORD_MIN, PasswordResetSchema, WebRoutes, type PasswordReset } from '@digicard/contracts';
import { Button, FormAlert, TextField } from '@digicard/ui';
import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { NETWORK_FAILURE_STATUS } from '../../api/http';
import { applyApiError } from '../../forms/utils/apply-api-error';
import { useSession } from '../../session/hooks/use-session';
import { resetPassword } from '../api/accounts';
import { useContractForm } from '../../forms/hooks/use-contract-form';

const FIELDS = ['password'] as const satisfies readonly (keyof PasswordReset)[];

const RESET_FAILED_MESSAGE = 'We could not change your password right now. Please try again in a minute.';

/** Navigation state the dashboard reads to confirm the change. */
export interface PasswordChangedState {
  notice: string;
}

/**
 * "New password" and "Save password", for the token of a reset link. Success signs in and goes to the dashboard;
 * a used or expired link calls `onLinkInvalid` with the server's message. The form is the page's only one and
 * carries no name of its own: named after the heading "Choose a new password", it would also answer to the label
 * "New password".
 */
export function ResetPasswordForm({ token, onLinkInvalid }: { token: string; onLinkInvalid: (message: string) => void }) {
  const navigate = useNavigate();
  const { setSession } = useSession();
  const [alert, setAlert] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useContractForm(PasswordResetSchema, { token, password: '' });

  const onValid = async (values: PasswordReset) => {
    const result = await resetPassword(values);
    if (result.ok) {
      setSession(result.data);
      const state: PasswordChangedState = { notice: AccountMessages.passwordChanged };
      void navigate(WebRoutes.dashboard, { replace: true, state });
      return;
    }
    const { error } = result;
    if (error.code === ErrorCode.LinkInvalid || (error.statusCode === 400 && error.fieldErrors?.['token'])) {
      onLinkInvalid(error.code === ErrorCode.LinkInvalid ? error.message : AccountMessages.linkInvalid);
    } else if (error.statusCode === NETWORK_FAILURE_STATUS || error.code === ErrorCode.LinkForOtherAccount) {
      // No connection; or signed in to another account since the page asked (another tab): the server's words.
      setAlert(error.message);
    } else {
      setAlert(applyApiError(error, FIELDS, setError, RESET_FAILED_MESSAGE));
    }
  };

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    setAlert(null);
    void handleSubmit(onValid)(event);
  }

  return (
    <form className="account-form" noValidate onSubmit={onSubmit}>
      <TextField
        label="New password"
        type="password"
        autoComplete="new-password"
        hint={`At least ${PASSWORD_MIN} characters.`}
        aria-required="true"
        error={errors.password?.message}
        {...register('password')}
      />
      <FormAlert className="account-form__alert">{alert}</FormAlert>
      <div className="account-form__actions">
        <Button type="submit" disabled={isSubmitting}>
          {isSubmitting ? 'Saving...' : 'Save password'}
        </Button>
      </div>
    </form>
  );
}
