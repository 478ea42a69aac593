import type { ApiError } from '@digicard/contracts';
import { useState, type FormEvent } from 'react';
import type { DefaultValues, FieldValues, Path } from 'react-hook-form';
import type { z } from 'zod';
import { applyApiError } from '../utils/apply-api-error';
import { useContractForm } from './use-contract-form';

/**
 * A form that is sent once and then replaced by a thank-you (the enquiry forms): the contract form, whether it was
 * sent, the form-level alert, and the submit handler that puts the server's field errors on their fields.
 */
export function useSentForm<T extends FieldValues>(
  schema: z.ZodType<T, T>,
  defaultValues: DefaultValues<T>,
  fields: readonly Path<T>[],
  send: (values: T) => Promise<{ ok: true } | { ok: false; error: ApiError }>,
) {
  const [sent, setSent] = useState(false);
  const [alert, setAlert] = useState<string | null>(null);
  const form = useContractForm(schema, defaultValues);

  const onValid = async (values: T) => {
    const result = await send(values);
    if (result.ok) setSent(true);
    else setAlert(applyApiError(result.error, fields, form.setError));
  };

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    setAlert(null);
    void form.handleSubmit(onValid)(event);
  }

  return { form, sent, alert, onSubmit };
}
