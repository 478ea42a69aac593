import { AnalyticsRangeSchema, type AnalyticsRange } from '@digicard/contracts';
import { saDay } from '@digicard/domain';
import { TextField } from '@digicard/ui';
import type { UseFormReturn } from 'react-hook-form';
import { z } from 'zod';
import { useContractForm } from '../../forms/hooks/use-contract-form';

export const RANGE_ORDER_MESSAGE = 'Please choose a start on or before the end.';

/**
 * The range of an analytics report as typed (two dates): both given, the start on or before the end (the spec's
 * words, on From), then the contract's AnalyticsRangeSchema (a real day each, at most its number of days).
 */
export const RangeFormSchema = z
  .object({ from: z.string(), to: z.string() })
  .refine(({ from, to }) => from !== '' && to !== '' && from <= to, { message: RANGE_ORDER_MESSAGE, path: ['from'] })
  .transform((range): z.input<typeof AnalyticsRangeSchema> => range)
  .pipe(AnalyticsRangeSchema);

type RangeForm = UseFormReturn<{ from: string; to: string }, unknown, AnalyticsRange>;

/** The range form of a report (the owner's Analytics, the leader view): `show` checks it and hands the range on. */
export function useRangeForm(shown: { from: string; to: string }, onRange: (range: AnalyticsRange) => void) {
  const form = useContractForm(RangeFormSchema, { from: shown.from, to: shown.to });
  return { form, show: form.handleSubmit(onRange) };
}

/** From and To (up to today in South Africa), the range's error under From. */
export function RangeFields({ form }: { form: RangeForm }) {
  const { errors } = form.formState;
  return (
    <>
      <TextField label="From" type="date" max={saDay()} error={errors.from?.message} {...form.register('from')} />
      <TextField label="To" type="date" max={saDay()} error={errors.to?.message} {...form.register('to')} />
    </>
  );
}
