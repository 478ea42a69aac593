import { MessageEnquirySchema, type MessageEnquiry } from '@digicard/contracts';
import { Button, FormAlert, TextArea, TextField } from '@digicard/ui';
import { submitMessageEnquiry } from '../api/enquiries';
import { SentMessage } from './sent-message';
import { useSentForm } from '../../forms/hooks/use-sent-form';
import { useSubmissionKey } from '../../forms/hooks/use-submission-key';

const FIELDS = ['name', 'email', 'message'] as const satisfies readonly (keyof MessageEnquiry)[];

const MESSAGE_SENT_TEXT = 'Thank you for getting in touch with us. We will respond to your message as soon as we can.';

/** The contact page form: Name, Email, Message, "Send". `labelledBy` names the form after the page heading. */
export function MessageForm({ labelledBy }: { labelledBy: string }) {
  const idempotencyKey = useSubmissionKey();
  const {
    form: {
      register,
      formState: { errors, isSubmitting },
    },
    sent,
    alert,
    onSubmit,
  } = useSentForm(MessageEnquirySchema, { name: '', email: '', message: '' }, FIELDS, (values) =>
    submitMessageEnquiry({ ...values, idempotencyKey }),
  );

  if (sent) return <SentMessage>{MESSAGE_SENT_TEXT}</SentMessage>;

  return (
    <form className="message-form" aria-labelledby={labelledBy} noValidate onSubmit={onSubmit}>
      <TextField label="Name" autoComplete="name" aria-required="true" error={errors.name?.message} {...register('name')} />
      <TextField
        label="Email"
        type="email"
        autoComplete="email"
        aria-required="true"
        error={errors.email?.message}
        {...register('email')}
      />
      <TextArea label="Message" rows={6} aria-required="true" error={errors.message?.message} {...register('message')} />
      <FormAlert className="message-form__alert">{alert}</FormAlert>
      <Button type="submit" className="message-form__submit" disabled={isSubmitting}>
        {isSubmitting ? 'Sending...' : 'Send'}
      </Button>
    </form>
  );
}
