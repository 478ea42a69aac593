import { Button, FormAlert } from '@digicard/ui';

/** What a section shows when what it reads did not load: why, and a way to try again. */
export function LoadFailed({ message, retry }: { message: string; retry: () => void }) {
  return (
    <>
      <FormAlert>{message}</FormAlert>
      <Button variant="secondary" onClick={retry}>
        Try again
      </Button>
    </>
  );
}
