import { QuoteEnquirySchema, type QuoteEnquiry } from '@digicard/contracts';
import { Button, FormAlert, TextArea, TextField } from '@digicard/ui';
import { submitQuoteEnquiry } from '../api/enquiries';
import { SentMessage } from './sent-message';
import { useSentForm } from '../../forms/hooks/use-sent-form';
import { useSubmissionKey } from '../../forms/hooks/use-submission-key';

const FIELDS = ['name', 'company', 'teamSize', 'email', 'number', 'message'] as const satisfies readonly (keyof QuoteEnquiry)[];

export const QUOTE_SENT_TEXT = 'Thank you. Our sales team will send you a DigiPlatinum quote, usually within one working day.';

/** DigiPlatinum is priced on request: who the team is, how many people, and how to reach them. */
export function QuoteForm({ labelledBy }: { labelledBy: string }) {
  const idempotencyKey = useSubmissionKey();
  const {
    form: {
      register,
      formState: { errors, isSubmitting },
    },
    sent,
    alert,
    onSubmit,
  } = useSentForm(QuoteEnquirySchema, { name: '', company: '', email: '', number: '', message: '' }, FIELDS, (values) =>
    submitQuoteEnquiry({ ...values, idempotencyKey }),
  );

  if (sent) return <SentMessage>{QUOTE_SENT_TEXT}</SentMessage>;

  return (
    <form className="message-form" aria-labelledby={labelledBy} noValidate onSubmit={onSubmit}>
      <TextField label="Name" autoComplete="name" aria-required="true" error={errors.name?.message} {...register('name')} />
      <TextField
        label="Company"
        autoComplete="organization"
        aria-required="true"
        error={errors.company?.message}
        {...register('company')}
      />
      <TextField
        label="How many people would use DigiCard?"
        type="number"
        inputMode="numeric"
        min={2}
        aria-required="true"
        error={errors.teamSize?.message}
        {...register('teamSize', { valueAsNumber: true })}
      />
      <TextField
        label="Email"
        type="email"
        autoComplete="email"
        aria-required="true"
        error={errors.email?.message}
        {...register('email')}
      />
      <TextField
        label="Number"
        type="tel"
        autoComplete="tel"
        inputMode="numeric"
        hint="10 digits, e.g. 0821234567"
        aria-required="true"
        error={errors.number?.message}
        {...register('number')}
      />
      <TextArea label="Anything we should know (optional)" rows={4} error={errors.message?.message} {...register('message')} />
      <FormAlert className="message-form__alert">{alert}</FormAlert>
      <Button type="submit" className="message-form__submit" disabled={isSubmitting}>
        {isSubmitting ? 'Sending...' : 'Request a quote'}
      </Button>
    </form>
  );
}
