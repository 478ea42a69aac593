import { PASSWORD_MIN, RegisterRequestSchema, WebRoutes, type ApiError, type RegisterRequest } from '@digicard/contracts';
import { Button, FormAlert, TextField } from '@digicard/ui';
import { useState, type FormEvent } from 'react';
import { useWatch } from 'react-hook-form';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { NETWORK_FAILURE_STATUS } from '../../api/http';
import { applyApiError } from '../../forms/utils/apply-api-error';
import { register as registerAccount } from '../api/accounts';
import { publicProfileUrl } from '../utils/profile-url';
import { useContractForm } from '../../forms/hooks/use-contract-form';

const FIELDS = ['username', 'firstName', 'lastName', 'email', 'password'] as const satisfies readonly (keyof RegisterRequest)[];

const REGISTER_FAILED_MESSAGE = 'We could not create your account right now. Please try again in a minute.';
const USERNAME_PLACEHOLDER = 'your-username';

/**
 * Another sign-up with the same fields (the special offer's): it sends the values itself and answers the error to
 * show (field errors go on their fields, `message` is the alert), or null when it has taken over (left the page).
 */
export interface RegisterSubmission {
  send: (values: RegisterRequest) => Promise<{ error: ApiError; message: string } | null>;
  submitLabel: string;
  busyLabel: string;
}

/**
 * Username, First Name, Last Name, Email, Password, "Register" and a "Log In" link. The server's field errors
 * (username taken or reserved, common password) go on their fields. Success goes to /verify-email, signed out,
 * whether the email was new or has an account (decisions.md): the emailed link signs the new account in. `labelledBy` names the form; `submission` replaces what Register does (the special
 * offer's /registration), with the same fields and validation.
 */
export function RegisterForm({ labelledBy, submission }: { labelledBy: string; submission?: RegisterSubmission }) {
  const navigate = useNavigate();
  const [alert, setAlert] = useState<string | null>(null);
  const [prefill] = useSearchParams();
  const {
    register,
    control,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useContractForm(RegisterRequestSchema, {
    username: '',
    // The visitor welcome email's link ("Get your own Profile") fills in what the visitor already gave.
    firstName: prefill.get('firstName')?.slice(0, 120) ?? '',
    lastName: prefill.get('lastName')?.slice(0, 120) ?? '',
    email: prefill.get('email')?.slice(0, 254) ?? '',
    password: '',
  });
  const username = useWatch({ control, name: 'username' }).trim().toLowerCase() || USERNAME_PLACEHOLDER;

  const onValid = async (values: RegisterRequest) => {
    if (submission) {
      const failed = await submission.send(values);
      if (failed) {
        applyApiError(failed.error, FIELDS, setError, failed.message);
        setAlert(failed.message);
      }
      return;
    }
    const result = await registerAccount(values);
    if (result.ok) {
      // No session yet, whether the email was new or not: the emailed link signs the account in.
      void navigate(WebRoutes.verifyEmail, { replace: true });
    } else if (result.error.statusCode === NETWORK_FAILURE_STATUS) {
      setAlert(result.error.message);
    } else {
      setAlert(applyApiError(result.error, FIELDS, setError, REGISTER_FAILED_MESSAGE));
    }
  };

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    setAlert(null);
    void handleSubmit(onValid)(event);
  }

  return (
    <form className="account-form" aria-labelledby={labelledBy} noValidate onSubmit={onSubmit}>
      <TextField
        label="Username"
        autoComplete="username"
        autoCapitalize="none"
        autoCorrect="off"
        spellCheck={false}
        hint={`Lowercase letters, digits and hyphens: your profile will be at ${publicProfileUrl(username)}`}
        aria-required="true"
        error={errors.username?.message}
        {...register('username')}
      />
      <div className="account-form__row">
        <TextField
          label="First Name"
          autoComplete="given-name"
          aria-required="true"
          error={errors.firstName?.message}
          {...register('firstName')}
        />
        <TextField
          label="Last Name"
          autoComplete="family-name"
          aria-required="true"
          error={errors.lastName?.message}
          {...register('lastName')}
        />
      </div>
      <TextField
        label="Email"
        type="email"
        autoComplete="email"
        aria-required="true"
        error={errors.email?.message}
        {...register('email')}
      />
      <TextField
        label="Password"
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
          {isSubmitting ? (submission?.busyLabel ?? 'Registering...') : (submission?.submitLabel ?? 'Register')}
        </Button>
      </div>
      <p className="account-form__switch">
        Already have an account? <Link to={WebRoutes.login}>Log In</Link>
      </p>
    </form>
  );
}
