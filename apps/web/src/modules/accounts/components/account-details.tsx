import { AccountMessages, AccountNamesSchema, EmailChangeRequestSchema } from '@digicard/contracts';
import { Button, FormAlert, TextField } from '@digicard/ui';
import { useState, type KeyboardEvent } from 'react';
import { useSession } from '../../session/hooks/use-session';
import { renameAccount, requestEmailChange } from '../api/accounts';

type Errors = Partial<Record<string, string>>;
type Outcome = { ok: true; message: string } | { ok: false; message: string } | null;

const firstErrors = (fieldErrors: Record<string, string[] | undefined> | undefined): Errors =>
  Object.fromEntries(Object.entries(fieldErrors ?? {}).map(([field, messages]) => [field, messages?.[0]]));

/** Enter in a field acts on its own group, rather than saving the profile editor the group sits in. */
const onEnter = (action: () => void) => (event: KeyboardEvent<HTMLInputElement>) => {
  if (event.key === 'Enter') {
    event.preventDefault();
    action();
  }
};

/**
 * Settings, Account: the owner's first and last name (the public page shows them once saved) and their email (a link
 * goes to the new address; the email changes only when it is used, and the old address is told). Not <form>s: they
 * sit inside the editor's form, and forms do not nest.
 */
export function AccountDetails({ onRenamed }: { onRenamed?: (names: { firstName: string; lastName: string }) => void }) {
  const { user, refresh } = useSession();
  const [firstName, setFirstName] = useState(user?.firstName ?? '');
  const [lastName, setLastName] = useState(user?.lastName ?? '');
  const [nameErrors, setNameErrors] = useState<Errors>({});
  const [nameOutcome, setNameOutcome] = useState<Outcome>(null);
  const [savingName, setSavingName] = useState(false);

  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [emailErrors, setEmailErrors] = useState<Errors>({});
  const [emailOutcome, setEmailOutcome] = useState<Outcome>(null);
  const [sendingEmail, setSendingEmail] = useState(false);

  async function saveName() {
    setNameOutcome(null);
    const parsed = AccountNamesSchema.safeParse({ firstName, lastName });
    if (!parsed.success) {
      setNameErrors(firstErrors(parsed.error.flatten().fieldErrors));
      return;
    }
    setNameErrors({});
    setSavingName(true);
    const result = await renameAccount(parsed.data);
    setSavingName(false);
    if (result.ok) {
      setFirstName(result.data.firstName);
      setLastName(result.data.lastName);
      setNameOutcome({ ok: true, message: AccountMessages.namesSaved });
      onRenamed?.({ firstName: result.data.firstName, lastName: result.data.lastName });
      void refresh();
      return;
    }
    setNameErrors(firstErrors(result.error.fieldErrors));
    setNameOutcome({ ok: false, message: result.error.message });
  }

  async function changeEmail() {
    setEmailOutcome(null);
    const parsed = EmailChangeRequestSchema.safeParse({ email, password });
    if (!parsed.success) {
      setEmailErrors(firstErrors(parsed.error.flatten().fieldErrors));
      return;
    }
    setEmailErrors({});
    setSendingEmail(true);
    const result = await requestEmailChange(parsed.data);
    setSendingEmail(false);
    if (result.ok) {
      setPassword('');
      setEmailOutcome({ ok: true, message: result.data.message });
      return;
    }
    const errors = firstErrors(result.error.fieldErrors);
    // A wrong password is the password field's error (the product's own text).
    if (result.error.statusCode === 401 && result.error.code === 'AUTH_WRONG_PASSWORD') errors['password'] = result.error.message;
    setEmailErrors(errors);
    if (Object.keys(errors).length === 0) setEmailOutcome({ ok: false, message: result.error.message });
  }

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
          value={firstName}
          error={nameErrors['firstName']}
          onChange={(e) => setFirstName(e.currentTarget.value)}
          onKeyDown={onEnter(() => void saveName())}
        />
        <TextField
          label="Last Name"
          autoComplete="family-name"
          value={lastName}
          error={nameErrors['lastName']}
          onChange={(e) => setLastName(e.currentTarget.value)}
          onKeyDown={onEnter(() => void saveName())}
        />
        <Button disabled={savingName} onClick={() => void saveName()}>
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
          value={email}
          error={emailErrors['email']}
          onChange={(e) => setEmail(e.currentTarget.value)}
          onKeyDown={onEnter(() => void changeEmail())}
        />
        <TextField
          label="Password"
          type="password"
          autoComplete="current-password"
          value={password}
          error={emailErrors['password']}
          hint="Type your password to confirm."
          onChange={(e) => setPassword(e.currentTarget.value)}
          onKeyDown={onEnter(() => void changeEmail())}
        />
        <Button disabled={sendingEmail} onClick={() => void changeEmail()}>
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
