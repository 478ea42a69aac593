import {
  AccountMessages,
  DeleteAccountSchema,
  HttpRoutes,
  WebRoutes,
  type DeleteAccount as DeleteAccountRequest,
} from '@digicard/contracts';
import { Button, confirm, FormAlert, notice, TextField } from '@digicard/ui';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { z } from 'zod';
import { deleteJson } from '../../api/http';
import { useContractForm } from '../../forms/hooks/use-contract-form';
import { applyApiError } from '../../forms/utils/apply-api-error';
import { forgetDeletedAccount } from '../../session/utils/session-actions';

const DELETE_FIELDS = ['password'] as const;

/** The contract's DeleteAccountSchema, with the spec's words for a blank password ("Password required to confirm."). */
export const DeleteAccountFormSchema = z
  .object({ password: z.string().min(1, AccountMessages.passwordRequired) })
  .pipe(DeleteAccountSchema);

/**
 * POPIA's right to be forgotten: the owner confirms with their password (a react-hook-form form checked by the
 * contract's DeleteAccountSchema, as the server checks it), then everything held about them goes.
 */
export function DeleteAccount() {
  const navigate = useNavigate();
  const form = useContractForm(DeleteAccountFormSchema, { password: '' });
  const [alert, setAlert] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const onValid = async (values: DeleteAccountRequest) => {
    if (
      !(await confirm({
        title: 'Delete your account, your profile, your images and your leads? This cannot be undone.',
        confirmLabel: 'Delete my account',
        cancelLabel: 'Keep my account',
      }))
    )
      return;
    setBusy(true);
    const result = await deleteJson(HttpRoutes.deleteAccount, values);
    setBusy(false);
    if (result.ok) {
      forgetDeletedAccount();
      await notice({ title: result.data.message });
      void navigate(WebRoutes.home);
      return;
    }
    setAlert(applyApiError(result.error, DELETE_FIELDS, form.setError, result.error.message));
  };
  const submit = () => {
    setAlert(null);
    void form.handleSubmit(onValid)();
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
        error={form.formState.errors.password?.message}
        hint="Type your password to confirm."
        {...form.register('password')}
        onKeyDown={(e) => {
          // Enter here deletes (after the confirmation), rather than saving the profile around it.
          if (e.key === 'Enter') {
            e.preventDefault();
            submit();
          }
        }}
      />
      <Button disabled={busy} onClick={submit}>
        {busy ? 'Deleting...' : 'Delete my account'}
      </Button>
    </div>
  );
}
