import { CallBackEnquirySchema, type CallBackEnquiry } from '@digicard/contracts';
import { Button, FormAlert, TextField } from '@digicard/ui';
import { useId } from 'react';
import { submitCallBackEnquiry } from '../api/enquiries';
import { SentMessage } from './sent-message';
import { useSentForm } from '../../forms/hooks/use-sent-form';
import { useSubmissionKey } from '../../forms/hooks/use-submission-key';

const FIELDS = ['name', 'email', 'number'] as const satisfies readonly (keyof CallBackEnquiry)[];

const CALL_BACK_SENT_TEXT = 'Thank you for submitting your details. We will get in touch with you as soon as possible.';

/** The footer form "Get things started": Name, Email, Number, "Let's Talk". */
export function CallBackForm() {
  const headingId = useId();
  const idempotencyKey = useSubmissionKey();
  const {
    form: {
      register,
      formState: { errors, isSubmitting },
    },
    sent,
    alert,
    onSubmit,
  } = useSentForm(CallBackEnquirySchema, { name: '', email: '', number: '' }, FIELDS, (values) =>
    submitCallBackEnquiry({ ...values, idempotencyKey }),
  );

  return (
    <div className="call-back">
      <h2 id={headingId} className="call-back__title">
        Get things started
      </h2>
      {sent ? (
        <SentMessage>{CALL_BACK_SENT_TEXT}</SentMessage>
      ) : (
        <form className="call-back__form" aria-labelledby={headingId} noValidate onSubmit={onSubmit}>
          <TextField label="Name" autoComplete="name" aria-required="true" error={errors.name?.message} {...register('name')} />
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
            autoComplete="tel-national"
            inputMode="numeric"
            hint="10 digits, e.g. 0821234567"
            aria-required="true"
            error={errors.number?.message}
            {...register('number')}
          />
          <FormAlert className="call-back__alert">{alert}</FormAlert>
          <Button type="submit" className="call-back__submit" disabled={isSubmitting}>
            {isSubmitting ? 'Sending...' : "Let's Talk"}
          </Button>
        </form>
      )}
    </div>
  );
}
