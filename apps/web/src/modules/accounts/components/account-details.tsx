import {
  AccountMessages,
  AccountNamesSchema,
  EmailChangeRequestSchema,
  type AccountNames,
  type ApiError,
  type EmailChangeRequest,
} from '@digicard/contracts';
import { Button, FormAlert, TextField } from '@digicard/ui';
import { useState, type KeyboardEvent } from 'react';
import type { FieldValues, Path, UseFormSetError } from 'react-hook-form';
import { useContractForm } from '../../forms/hooks/use-contract-form';
import { useSession } from '../../session/hooks/use-session';
import { renameAccount, requestEmailChange } from '../api/accounts';

type Outcome = { ok: true; message: string } | { ok: false; message: string } | null;

const NAME_FIELDS = ['firstName', 'lastName'] as const satisfies readonly Path<AccountNames>[];
const EMAIL_FIELDS = ['email', 'password'] as const satisfies readonly Path<EmailChangeRequest>[];

/**
 * Puts the server's field errors on their fields (the first message of each); returns how many it placed. Unlike
 * applyApiError, any status's field errors count (a 401 for a wrong password carries none and is handled apart).
 */
function placeFieldErrors<T extends FieldValues>(error: ApiError, fields: readonly Path<T>[], setError: UseFormSetError<T>): number {
  let placed = 0;
  for (const field of fields) {
    const message = error.fieldErrors?.[field]?.[0];
    if (!message) continue;
    setError(field, { type: 'server', message });
    placed += 1;
  }
  return placed;
}

/** Enter in a field acts on its own group, rather than saving the profile editor the group sits in. */
const onEnter = (action: () => void) => (event: KeyboardEvent<HTMLInputElement>) => {
  if (event.key === 'Enter') {
    event.preventDefault();
    action();
  }
};

/**
 * Settings, Account: the owner's first and last name (the public page shows them once saved) and their email (a link
 * goes to the new address; the email changes only when it is used, and the old address is told). Each group is a
 * react-hook-form form checked by the contract schema the server uses. Not <form>s: they sit inside the editor's
 * form, and forms do not nest; their buttons and Enter submit them.
 */
export function AccountDetails({ onRenamed }: { onRenamed?: (names: { firstName: string; lastName: string }) => void }) {
  const { user, refresh } = useSession();
  const names = useContractForm(AccountNamesSchema, { firstName: user?.firstName ?? '', lastName: user?.lastName ?? '' });
  const [nameOutcome, setNameOutcome] = useState<Outcome>(null);
  const emailForm = useContractForm(EmailChangeRequestSchema, { email: '', password: '' });
  const [emailOutcome, setEmailOutcome] = useState<Outcome>(null);

  const onNames = async (values: AccountNames) => {
    const result = await renameAccount(values);
    if (result.ok) {
      names.reset({ firstName: result.data.firstName, lastName: result.data.lastName });
      setNameOutcome({ ok: true, message: AccountMessages.namesSaved });
      onRenamed?.({ firstName: result.data.firstName, lastName: result.data.lastName });
      void refresh();
      return;
    }
    placeFieldErrors(result.error, NAME_FIELDS, names.setError);
    setNameOutcome({ ok: false, message: result.error.message });
  };
  const saveName = () => {
    setNameOutcome(null);
    void names.handleSubmit(onNames)();
  };

  const onEmail = async (values: EmailChangeRequest) => {
    const result = await requestEmailChange(values);
    if (result.ok) {
      emailForm.setValue('password', '');
      setEmailOutcome({ ok: true, message: result.data.message });
      return;
    }
    let placed = placeFieldErrors(result.error, EMAIL_FIELDS, emailForm.setError);
    // A wrong password is the password field's error (the product's own text).
    if (result.error.statusCode === 401 && result.error.code === 'AUTH_WRONG_PASSWORD') {
      emailForm.setError('password', { type: 'server', message: result.error.message });
      placed += 1;
    }
    if (placed === 0) setEmailOutcome({ ok: false, message: result.error.message });
  };
  const changeEmail = () => {
    setEmailOutcome(null);
    void emailForm.handleSubmit(onEmail)();
  };

  const nameErrors = names.formState.errors;
  const emailErrors = emailForm.formState.errors;
  const savingName = names.formState.isSubmitting;
  const sendingEmail = emailForm.formState.isSubmitting;

  // A rep's names and email are their leader's to change (the server refuses them too).
  if (user?.role === 'teamMember') {
    return (
      <p className="pe-note">
        {user.firstName} {user.lastName}, {user.email}. {AccountMessages.managedByLeader}
      </p>
    );
  }

  return (
    <>
      <div role="group" aria-label="Your name" className="pe-account">
        <p>Your name as your profile page and your contact card show it.</p>
        <TextField
          label="First Name"
          autoComplete="given-name"
          error={nameErrors.firstName?.message}
          {...names.register('firstName')}
          onKeyDown={onEnter(saveName)}
        />
        <TextField
          label="Last Name"
          autoComplete="family-name"
          error={nameErrors.lastName?.message}
          {...names.register('lastName')}
          onKeyDown={onEnter(saveName)}
        />
        <Button disabled={savingName} onClick={saveName}>
          {savingName ? 'Saving...' : 'Save my name'}
        </Button>
        <p className="pe-account__status" role="status">
          {nameOutcome?.ok ? nameOutcome.message : ''}
        </p>
        {nameOutcome && !nameOutcome.ok ? <FormAlert>{nameOutcome.message}</FormAlert> : null}
      </div>

      <div role="group" aria-label="Your email" className="pe-account">
        <p>
          Your email is <strong>{user?.email}</strong>. To use another one, enter it with your password: we send a link to the new address,
          and your email changes when you open it. We let your current address know.
        </p>
        <TextField
          label="New Email"
          type="email"
          autoComplete="email"
          error={emailErrors.email?.message}
          {...emailForm.register('email')}
          onKeyDown={onEnter(changeEmail)}
        />
        <TextField
          label="Password"
          type="password"
          autoComplete="current-password"
          error={emailErrors.password?.message}
          hint="Type your password to confirm."
          {...emailForm.register('password')}
          onKeyDown={onEnter(changeEmail)}
        />
        <Button disabled={sendingEmail} onClick={changeEmail}>
          {sendingEmail ? 'Sending...' : 'Change my email'}
        </Button>
        <p className="pe-account__status" role="status">
          {emailOutcome?.ok ? emailOutcome.message : ''}
        </p>
        {emailOutcome && !emailOutcome.ok ? <FormAlert>{emailOutcome.message}</FormAlert> : null}
      </div>
    </>
  );
}
