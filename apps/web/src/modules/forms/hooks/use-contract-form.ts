import { zodResolver } from '@hookform/resolvers/zod';
import { useForm, type DefaultValues, type FieldValues } from 'react-hook-form';
import type { z } from 'zod';

/**
 * Every form checks itself with the contract schema the server uses: on submit first, then as the person corrects
 * each field. The form holds what the person types (the schema's input: an optional field with a default may be
 * left out); the submit handler gets what the schema makes of it (its output, as the server reads it).
 */
export function useContractForm<Input extends FieldValues, Output extends FieldValues = Input>(
  schema: z.ZodType<Output, Input>,
  defaultValues: DefaultValues<Input>,
) {
  return useForm<Input, unknown, Output>({ resolver: zodResolver(schema), mode: 'onSubmit', reValidateMode: 'onChange', defaultValues });
}
