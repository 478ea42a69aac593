import { AccountMessages, DeleteAccountSchema, HttpRoutes, WebRoutes } from '@digicard/contracts';
import { Button, confirm, FormAlert, notice, TextField } from '@digicard/ui';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { deleteJson } from '../../api/http';
import { forgetDeletedAccount } from '../../session/utils/session-actions';

/** POPIA's right to be forgotten: the owner confirms with their password, then everything held about them goes. */
export function DeleteAccount() {
  const navigate = useNavigate();
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [alert, setAlert] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);

  const submit = async () => {
    setAlert(undefined);
    const parsed = DeleteAccountSchema.safeParse({ password });
    if (!parsed.success) {
      setError(AccountMessages.passwordRequired);
      return;
    }
    setError(undefined);
    if (
      !(await confirm({
        title: 'Delete your account, your profile, your images and your leads? This cannot be undone.',
        confirmLabel: 'Delete my account',
        cancelLabel: 'Keep my account',
      }))
    )
      return;
    setBusy(true);
    const result = await deleteJson(HttpRoutes.deleteAccount, parsed.data);
    setBusy(false);
    if (result.ok) {
      forgetDeletedAccount();
      await notice({ title: result.data.message });
      void navigate(WebRoutes.home);
      return;
    }
    if (result.error.fieldErrors?.['password']) setError(result.error.fieldErrors['password'][0]);
    else setAlert(result.error.message);
  };

  return (
    // Not a <form>: it sits inside the editor's form, and forms do not nest.
    <div role="group" aria-label="Delete my account">
      <p>This deletes your account, your profile, your images and your leads. Your public page stops working at once.</p>
      {alert && <FormAlert>{alert}</FormAlert>}
      <TextField
        label="Password"
        type="password"
        autoComplete="current-password"
        value={password}
        error={error}
        hint="Type your password to confirm."
        onChange={(e) => setPassword(e.currentTarget.value)}
        onKeyDown={(e) => {
          // Enter here deletes (after the confirmation), rather than saving the profile around it.
          if (e.key === 'Enter') {
            e.preventDefault();
            void submit();
          }
        }}
      />
      <Button disabled={busy} onClick={() => void submit()}>
        {busy ? 'Deleting...' : 'Delete my account'}
      </Button>
    </div>
  );
}
