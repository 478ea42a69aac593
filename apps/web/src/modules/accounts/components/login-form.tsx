import {
  AccountMessages,
  ErrorCode,
  LoginRequestSchema,
  PasswordResetRequestSchema,
  SsoErrorCodes,
  SsoMessages,
  SsoStartSchema,
  WebRoutes,
  type SsoErrorCode,
  type ApiError,
  type LoginRequest,
  type PasswordResetRequest,
  type SsoStart,
} from '@digicard/contracts';
import { Button, FormAlert, Notice, TextField } from '@digicard/ui';
import { useState, type FormEvent } from 'react';
import type { UseFormSetError } from 'react-hook-form';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { NETWORK_FAILURE_STATUS, UnexpectedResponseCode } from '../../api/http';
import { applyApiError, isTooManyRequests } from '../../forms/utils/apply-api-error';
import { logIn } from '../../session/api/session';
import { useSession } from '../../session/hooks/use-session';
import { requestPasswordReset } from '../api/accounts';
import { startSso } from '../../teams/api/sso';
import { useContractForm } from '../../forms/hooks/use-contract-form';

const FIELDS = ['email', 'password'] as const satisfies readonly (keyof LoginRequest)[];

/** The product's texts by code, for a 401 that came without a message. */
const LOGIN_MESSAGES: Partial<Record<string, string>> = {
  [ErrorCode.InvalidCredentials]: AccountMessages.invalidCredentials,
  [ErrorCode.LoginFailed]: AccountMessages.loginFailed,
};

type ResetOutcome = { sent: true; message: string } | { sent: false; message: string };

/** Why the company sign-in came back to the login page (`?sso_error=<code>`), in words; null for none or an unknown code. */
function ssoErrorMessage(code: string | null): string | null {
  return code && (SsoErrorCodes as string[]).includes(code) ? SsoMessages.errors[code as SsoErrorCode] : null;
}

/**
 * Email, Password, "Log In", the "Reset Password" action (it emails a reset link to the address typed above), "Sign
 * in with your company account" (single sign-on: the team's provider found by the email's domain, or by the team's
 * link `/login?team=<id>`) and a "Register" link. Success stores the session and goes to the dashboard. `labelledBy`
 * names the form.
 */
export function LoginForm({ labelledBy }: { labelledBy: string }) {
  const navigate = useNavigate();
  const [searchParams] = useSearchParams();
  const team = searchParams.get('team');
  const { setSession } = useSession();
  const [alert, setAlert] = useState<string | null>(() => ssoErrorMessage(searchParams.get('sso_error')));
  const [redirecting, setRedirecting] = useState(false);
  const [resetting, setResetting] = useState(false);
  const [reset, setReset] = useState<ResetOutcome | null>(null);
  const {
    register,
    handleSubmit,
    setError,
    getValues,
    setFocus,
    formState: { errors, isSubmitting },
  } = useContractForm(LoginRequestSchema, { email: '', password: '' });
  // "Reset Password" and "Sign in with your company account" send the email typed above, each checked by its own
  // contract schema (the form's values are copied into it when the button is pressed).
  const resetForm = useContractForm(PasswordResetRequestSchema, { email: '' });
  const ssoForm = useContractForm(SsoStartSchema, { email: '' });

  const onValid = async (values: LoginRequest) => {
    const result = await logIn(values);
    if (result.ok && result.data.user) {
      setSession(result.data);
      void navigate(WebRoutes.dashboard, { replace: true });
    } else {
      setAlert(result.ok ? AccountMessages.loginFailed : loginFailureMessage(result.error, setError));
    }
  };

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    setAlert(null);
    setReset(null);
    void handleSubmit(onValid)(event);
  }

  const sendReset = async (body: PasswordResetRequest) => {
    setResetting(true);
    const result = await requestPasswordReset(body);
    setResetting(false);
    if (result.ok) setReset({ sent: true, message: AccountMessages.resetSent });
    else if (isTooManyRequests(result.error)) setReset({ sent: false, message: result.error.message });
    else if (result.error.statusCode === 400 && result.error.fieldErrors?.['email']?.[0]) {
      setReset({ sent: false, message: result.error.fieldErrors['email'][0] });
    } else setReset({ sent: false, message: AccountMessages.resetFailed });
  };

  async function onResetPassword() {
    setAlert(null);
    setReset(null);
    resetForm.reset({ email: getValues('email') });
    // An empty or malformed email is said beside the button (not on the field: the login itself did not fail).
    await resetForm.handleSubmit(sendReset, (wrong) => {
      setReset({ sent: false, message: wrong.email?.message ?? AccountMessages.resetFailed });
      setFocus('email');
    })();
  }

  const sendSso = async (body: SsoStart) => {
    setRedirecting(true);
    const result = await startSso(body);
    if (result.ok) {
      // To the company's sign-in page; it sends the browser back to /api/sso/callback, which signs in.
      window.location.assign(result.data.redirectUrl);
      return;
    }
    setRedirecting(false);
    if (result.error.statusCode === 400 && result.error.fieldErrors?.['email']?.[0])
      setError('email', { message: result.error.fieldErrors['email'][0] });
    else setAlert(result.error.message || SsoMessages.providerUnreachable);
  };

  async function onCompanySignIn() {
    setAlert(null);
    setReset(null);
    // The team's link names the team: no email needed.
    if (team) return sendSso({ team });
    ssoForm.reset({ email: getValues('email') });
    await ssoForm.handleSubmit(sendSso, (wrong) => {
      setError('email', { message: wrong.email?.message ?? 'Please enter your work email address.' });
      setFocus('email');
    })();
  }

  return (
    <form className="account-form" aria-labelledby={labelledBy} noValidate onSubmit={onSubmit}>
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
        autoComplete="current-password"
        aria-required="true"
        error={errors.password?.message}
        {...register('password')}
      />
      <FormAlert className="account-form__alert">{alert}</FormAlert>
      <div className="account-form__actions">
        <Button type="submit" disabled={isSubmitting}>
          {isSubmitting ? 'Logging in...' : 'Log In'}
        </Button>
        <Button variant="secondary" disabled={resetting} onClick={() => void onResetPassword()}>
          {resetting ? 'Sending...' : 'Reset Password'}
        </Button>
      </div>
      <div className="account-form__actions">
        <Button variant="secondary" disabled={redirecting} onClick={() => void onCompanySignIn()}>
          {redirecting ? 'Opening your company sign-in...' : 'Sign in with your company account'}
        </Button>
      </div>
      <div role="status" className="account-form__status">
        {reset?.sent ? <Notice tone="success">{reset.message}</Notice> : null}
      </div>
      {reset && !reset.sent ? <FormAlert className="account-form__alert">{reset.message}</FormAlert> : null}
      <p className="account-form__switch">
        No account yet? <Link to={WebRoutes.register}>Register</Link>
      </p>
    </form>
  );
}

/**
 * 401: the server's own text (no account with this email, wrong password, or login failed); 400: beside the
 * fields; 429 and no answer at all: the message that says what to do; anything else: "Login failed".
 */
function loginFailureMessage(error: ApiError, setError: UseFormSetError<LoginRequest>): string | null {
  if (error.statusCode === 401) {
    if (error.code !== UnexpectedResponseCode && error.message) return error.message;
    return LOGIN_MESSAGES[error.code] ?? AccountMessages.loginFailed;
  }
  if (error.statusCode === 400) return applyApiError(error, FIELDS, setError, AccountMessages.loginFailed);
  // A rep whose team requires its company account: the server says to use "Sign in with your company account".
  if (error.statusCode === 403 && error.code === ErrorCode.SsoRequired) return error.message;
  if (isTooManyRequests(error) || error.statusCode === NETWORK_FAILURE_STATUS) return error.message;
  return AccountMessages.loginFailed;
}
