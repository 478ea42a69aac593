import {
  AddRepRequestSchema,
  ImportRepsRequestSchema,
  RepFieldsSchema,
  TeamMessages,
  type AddRepRequest,
  type Membership,
  type Rep,
  type RepFields,
} from '@digicard/contracts';
import { can } from '@digicard/domain';
import { Button, confirm, FormAlert, Notice, TextField } from '@digicard/ui';
import { useState } from 'react';
import type { FieldErrors, FieldValues, Path, UseFormReturn } from 'react-hook-form';
import type { z } from 'zod';
import { useAction } from '../../api/use-action';
import { LoadFailed } from '../../site/components/load-failed';
import { LoadMore } from '../../site/components/load-more';
import { useWalletStatus } from '../../profile-editor/hooks/use-wallet-status';
import { useContractForm } from '../../forms/hooks/use-contract-form';
import { applyApiError } from '../../forms/utils/apply-api-error';
import { offerRepPasses, TeamLinks } from '../api/teams';
import { useAddRep, useImportReps, useRemoveRep, useTeamReps, useUpdateRep } from '../hooks/use-team';
import { repsFromCsv, type CsvRep } from '../utils/reps-csv';
import { CompanySignIn } from './company-sign-in';
import { ScimProvisioning } from './scim-provisioning';
import { TeamAnalytics } from './team-analytics';
import '../teams.css';

type Errors = Record<string, string[] | undefined>;
type AddRepInput = z.input<typeof AddRepRequestSchema>;
const emptyRep: RepFields = { username: '', firstName: '', lastName: '', email: '', tel: '' };
const REP_LABELS: Array<[keyof RepFields, string, string]> = [
  ['username', 'Username', 'username'],
  ['firstName', 'First name', 'given-name'],
  ['lastName', 'Last name', 'family-name'],
  ['email', 'Email', 'email'],
  ['tel', 'Phone', 'tel'],
];

/**
 * Teams (team leaders only): the leader's sales reps, one edited at a time; adding one (or many from a CSV, all or
 * none) with the leader's own password to confirm; deleting after a confirmation. The leader stays signed in.
 * (No <form> elements: the section sits inside the editor's form, and forms cannot nest.)
 */
export function TeamsSection({ membership }: { membership: Membership }) {
  // Teams are DigiPlatinum's: the server refuses a leader below it (403); the section says why and where to upgrade.
  if (!can(membership, 'teams')) {
    return (
      <div className="tm tm-upgrade">
        <p role="alert" className="ui-form-alert">
          {TeamMessages.needsPlatinum}
        </p>
        <p>Your reps keep their accounts and pages; your team is here again as soon as DigiPlatinum is.</p>
      </div>
    );
  }
  return <Team />;
}

function Team() {
  const { state, retry, hasMore, more, loadMore } = useTeamReps();
  // What the last change said. Each change of the team (its mutation, hooks/use-team.ts) reads the reps and the leader
  // view again: a new rep shows, a removed one goes.
  const [message, done] = useState<string | null>(null);

  return (
    // Enter in a field here must not submit the editor's form around the section (the profile's Save).
    <div className="tm" onKeyDown={(e) => e.key === 'Enter' && e.target instanceof HTMLInputElement && e.preventDefault()}>
      {message ? (
        <Notice tone="success" role="status" className="tm-message">
          {message}
        </Notice>
      ) : null}
      <section aria-labelledby="tm-reps-title">
        <h3 id="tm-reps-title" className="tm-title">
          Sales reps
        </h3>
        {state.status === 'loading' ? (
          <p role="status">Loading...</p>
        ) : state.status === 'failed' ? (
          <LoadFailed message={state.message} retry={retry} />
        ) : state.value.reps.length === 0 ? (
          <p className="pe-list__empty">No sales reps yet. Add your first one below.</p>
        ) : (
          <>
            <RepList reps={state.value.reps} onDone={done} />
            <LoadMore list="reps" hasMore={hasMore} more={more} onLoadMore={() => void loadMore()} />
            <GiveRepPasses onDone={done} />
          </>
        )}
        <p className="pe-actions">
          <a className="button-link button-link--secondary" href={TeamLinks.leadsCsv} download>
            Download team leads (CSV)
          </a>
        </p>
      </section>
      <TeamAnalytics />
      <AddRepForm onDone={done} />
      <ImportReps onDone={done} />
      <CompanySignIn />
      <ScimProvisioning />
    </div>
  );
}

function RepList({ reps, onDone }: { reps: Rep[]; onDone: (message: string) => void }) {
  const [editing, setEditing] = useState<string | null>(null);
  return (
    <ul className="tm-reps" aria-label="Sales reps">
      {reps.map((rep) =>
        editing === rep.accountId ? (
          <EditRep
            key={rep.accountId}
            rep={rep}
            onCancel={() => setEditing(null)}
            onSaved={() => {
              setEditing(null);
              onDone(TeamMessages.repUpdated);
            }}
          />
        ) : (
          <li key={rep.accountId} className="tm-rep" aria-label={`${rep.firstName} ${rep.lastName}`}>
            <div className="tm-rep__facts">
              <strong>
                {rep.firstName} {rep.lastName}
              </strong>
              <span>/{rep.username}</span>
              <span>{rep.email}</span>
              <span>{rep.tel}</span>
              {rep.active ? null : <span className="tm-rep__inactive">Deactivated by your identity provider</span>}
            </div>
            <div className="tm-rep__actions">
              <Button variant="secondary" onClick={() => setEditing(rep.accountId)} aria-label={`Edit ${rep.username}`}>
                Edit
              </Button>
              <DeleteRep rep={rep} onDeleted={() => onDone(TeamMessages.repDeleted)} />
            </div>
          </li>
        ),
      )}
    </ul>
  );
}

export const GIVE_REP_PASSES = 'Give every rep their wallet pass';

/**
 * One action for the whole team: every rep is emailed links to add their own card to Apple Wallet or Google Wallet
 * (whichever the deployment offers), each opening their own dashboard. Shown only when a wallet is offered.
 */
function GiveRepPasses({ onDone }: { onDone: (message: string) => void }) {
  const wallet = useWalletStatus();
  const action = useAction();
  if (wallet.state.status !== 'loaded' || !(wallet.state.value.apple.available || wallet.state.value.google.available)) return null;

  const give = () =>
    action.run({
      confirm: {
        title: 'Email every rep in your team a link to add their card to their phone’s wallet?',
        confirmLabel: 'Email the reps',
      },
      send: () => offerRepPasses(),
      failed: (error) => error.message,
      done: ({ sent }) => {
        onDone(sent === 1 ? 'Sent to 1 rep.' : `Sent to ${sent} reps.`);
        return '';
      },
    });

  return (
    <div className="pe-actions">
      <Button variant="secondary" disabled={action.pending} onClick={() => void give()}>
        {GIVE_REP_PASSES}
      </Button>
      {action.failure ? <FormAlert>{action.failure}</FormAlert> : null}
    </div>
  );
}

function DeleteRep({ rep, onDeleted }: { rep: Rep; onDeleted: () => void }) {
  const removal = useRemoveRep();
  const [error, setError] = useState<string | null>(null);
  async function remove() {
    if (
      !(await confirm({
        title: `Delete ${rep.firstName} ${rep.lastName} (${rep.username}) from your team? They will no longer be able to sign in; their leads stay with your team.`,
        confirmLabel: 'Delete rep',
      }))
    )
      return;
    const result = await removal.mutateAsync(rep.accountId);
    if (result.ok) onDeleted();
    else setError(result.error.message);
  }
  return (
    <>
      <Button variant="secondary" onClick={() => void remove()} aria-label={`Delete ${rep.username}`}>
        Delete
      </Button>
      {error ? <FormAlert>{error}</FormAlert> : null}
    </>
  );
}

const REP_FIELDS = REP_LABELS.map(([key]) => key);

/**
 * The spec's "Please fill in all fields." when a submit finds rep fields blank: said once in the form's alert, so the
 * blank fields' own errors (the same words, or the email's and phone's) are cleared. Returns whether it applies.
 */
function blankFieldsAlert<T extends FieldValues>(
  form: UseFormReturn<T, unknown, FieldValues>,
  alsoClear: readonly Path<T>[] = [],
): boolean {
  const values = form.getValues() as Partial<Record<keyof RepFields, string>>;
  const blank = REP_FIELDS.filter((key) => (values[key] ?? '').trim() === '');
  if (blank.length === 0) return false;
  form.clearErrors([...(blank as Path<T>[]), ...alsoClear]);
  return true;
}

/** The five rep fields of a form over the rep's contract fields, with ids under `prefix`. */
function RepInputs<T extends RepFields>({ prefix, form }: { prefix: string; form: UseFormReturn<T, unknown, FieldValues> }) {
  const errors = form.formState.errors as FieldErrors<RepFields>;
  return (
    <div className="tm-fields">
      {REP_LABELS.map(([key, label, autoComplete]) => (
        <TextField
          key={key}
          id={`${prefix}-${key}`}
          label={label}
          type={key === 'email' ? 'email' : key === 'tel' ? 'tel' : 'text'}
          autoComplete={autoComplete === 'username' ? 'off' : autoComplete}
          error={errors[key]?.message}
          {...form.register(key as Path<T>)}
        />
      ))}
    </div>
  );
}

/** Editing one rep: a react-hook-form form checked by the contract's RepFieldsSchema, as the server checks it. */
function EditRep({ rep, onCancel, onSaved }: { rep: Rep; onCancel: () => void; onSaved: () => void }) {
  const form = useContractForm(RepFieldsSchema, {
    username: rep.username,
    firstName: rep.firstName,
    lastName: rep.lastName,
    email: rep.email,
    tel: rep.tel,
  });
  const update = useUpdateRep();
  const [alert, setAlert] = useState<string | null>(null);

  const onValid = async (values: RepFields) => {
    const result = await update.mutateAsync({ accountId: rep.accountId, fields: values });
    if (result.ok) onSaved();
    else setAlert(applyApiError(result.error, REP_FIELDS, form.setError, result.error.message));
  };
  const save = () => {
    setAlert(null);
    void form.handleSubmit(onValid, () => blankFieldsAlert(form) && setAlert(TeamMessages.fillAllFields))();
  };

  return (
    <li className="tm-rep tm-rep--editing">
      <div className="tm-form" role="form" aria-label={`Edit ${rep.username}`}>
        <RepInputs prefix={`edit-${rep.accountId}`} form={form} />
        {alert ? <FormAlert>{alert}</FormAlert> : null}
        <div className="tm-form__actions">
          <Button disabled={form.formState.isSubmitting} onClick={save}>
            Save rep
          </Button>
          <Button variant="secondary" onClick={onCancel}>
            Cancel
          </Button>
        </div>
      </div>
    </li>
  );
}

/** The add-rep form's fields, in the contract's names (a server's field errors land on them). */
const ADD_REP_FIELDS: readonly Path<AddRepInput>[] = [...REP_FIELDS, 'password', 'leaderPassword'];

/**
 * Adding one rep: a react-hook-form form checked by the contract's AddRepRequestSchema, as the server checks it. The
 * spec's two alerts keep their order and words: any blank rep field is "Please fill in all fields." (said once, above
 * the button, rather than under each blank field); then a blank leader password is that field's "Password required to
 * confirm.". The server's field errors go on their fields; any other refusal is the alert.
 */
function AddRepForm({ onDone }: { onDone: (message: string) => void }) {
  const form = useContractForm(AddRepRequestSchema, { ...emptyRep, password: '', leaderPassword: '' });
  const { errors, isSubmitting } = form.formState;
  const adding = useAddRep();
  const [alert, setAlert] = useState<string | null>(null);

  const onValid = async (values: AddRepRequest) => {
    const result = await adding.mutateAsync(values);
    if (result.ok) {
      form.reset();
      onDone(TeamMessages.repAdded);
      return;
    }
    const message = applyApiError(result.error, ADD_REP_FIELDS, form.setError, result.error.message);
    setAlert(message);
  };
  // A blank rep field is said first; the leader password's own error waits until the rep's fields are filled.
  const onInvalid = () => blankFieldsAlert(form, ['leaderPassword']) && setAlert(TeamMessages.fillAllFields);
  const submit = () => {
    setAlert(null);
    void form.handleSubmit(onValid, onInvalid)();
  };

  return (
    <section aria-labelledby="tm-add-title">
      <h3 id="tm-add-title" className="tm-title">
        Add a sales rep
      </h3>
      <div className="tm-form" role="form" aria-label="Add a sales rep">
        <RepInputs prefix="add" form={form} />
        <TextField
          id="add-password"
          label="Rep's password (optional)"
          hint="Leave it empty: the rep gets an email to choose their own."
          type="password"
          autoComplete="new-password"
          error={errors.password?.message}
          {...form.register('password')}
        />
        <TextField
          id="add-leader-password"
          label="Your password, to confirm"
          type="password"
          autoComplete="current-password"
          error={errors.leaderPassword?.message}
          {...form.register('leaderPassword')}
        />
        {alert ? <FormAlert>{alert}</FormAlert> : null}
        <Button disabled={isSubmitting} onClick={submit}>
          Add rep
        </Button>
      </div>
    </section>
  );
}

type Preview = { reps: CsvRep[]; errors: Errors; checked: boolean };

/** The import form's own field: the leader's password, checked by the contract's ImportRepsRequestSchema. */
export const ImportConfirmSchema = ImportRepsRequestSchema.pick({ leaderPassword: true });
const IMPORT_FIELDS = ['leaderPassword'] as const;
export const ROWS_NEED_FIXING = 'Some rows need fixing (see below). Nothing was added: correct the file and choose it again.';

/**
 * The CSV import: the file's rows shown as a preview, checked by the server ("Check the rows", a dry run), then all
 * added or none. The leader's password is a react-hook-form field ("Password required to confirm." under it when
 * blank); the server's errors about a row (`reps.<row>.<field>`) show in that row, one about the password on its field.
 */
function ImportReps({ onDone }: { onDone: (message: string) => void }) {
  const [preview, setPreview] = useState<Preview | null>(null);
  const [alert, setAlert] = useState<string | null>(null);
  const form = useContractForm(ImportConfirmSchema, { leaderPassword: '' });
  const importing = useImportReps();
  const busy = form.formState.isSubmitting;

  const send = (reps: CsvRep[], dryRun: boolean) =>
    form.handleSubmit(async ({ leaderPassword }) => {
      const result = await importing.mutateAsync({ reps, leaderPassword, dryRun });
      if (result.ok) {
        setAlert(null);
        if (dryRun) setPreview({ reps, errors: {}, checked: true });
        else {
          setPreview(null);
          form.reset();
          onDone(reps.length === 1 ? TeamMessages.repAdded : TeamMessages.repsAdded);
        }
        return;
      }
      const rowErrors = Object.fromEntries(Object.entries(result.error.fieldErrors ?? {}).filter(([key]) => key.startsWith('reps.')));
      setPreview({ reps, errors: rowErrors, checked: false });
      const message = applyApiError(result.error, IMPORT_FIELDS, form.setError, result.error.message);
      setAlert(Object.keys(rowErrors).length > 0 ? ROWS_NEED_FIXING : message);
    })();

  async function choose(file: File | undefined) {
    if (!file) return;
    const reps = repsFromCsv(await file.text());
    setAlert(reps.length === 0 ? 'The file has no reps in it.' : null);
    setPreview(reps.length ? { reps, errors: {}, checked: false } : null);
  }

  const rowErrors = (i: number) =>
    Object.entries(preview?.errors ?? {})
      .filter(([key]) => key.startsWith(`reps.${i}.`))
      .flatMap(([, messages]) => messages ?? []);

  return (
    <section aria-labelledby="tm-import-title">
      <h3 id="tm-import-title" className="tm-title">
        Add many reps from a CSV file
      </h3>
      <p className="pe-note">
        Columns: username, first name, last name, email, phone, and an optional password. All rows are added, or none.
      </p>
      <label className="tm-file">
        <span>CSV file</span>
        <input type="file" accept=".csv,text/csv" aria-label="CSV file of reps" onChange={(e) => void choose(e.currentTarget.files?.[0])} />
      </label>
      {preview ? (
        <>
          <div className="tm-preview-wrap">
            <table className="tm-preview" aria-label="Reps in the file">
              <thead>
                <tr>
                  <th scope="col">Row</th>
                  <th scope="col">Username</th>
                  <th scope="col">Name</th>
                  <th scope="col">Email</th>
                  <th scope="col">Phone</th>
                  <th scope="col">Check</th>
                </tr>
              </thead>
              <tbody>
                {preview.reps.map((rep, i) => {
                  const problems = rowErrors(i);
                  return (
                    <tr key={i} className={problems.length ? 'tm-preview__bad' : undefined}>
                      <td>{i + 1}</td>
                      <td>{rep.username}</td>
                      <td>
                        {rep.firstName} {rep.lastName}
                      </td>
                      <td>{rep.email}</td>
                      <td>{rep.tel}</td>
                      <td>{problems.length ? problems.join(' ') : preview.checked ? 'OK' : ''}</td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
          <TextField
            id="import-leader-password"
            label="Your password, to confirm"
            type="password"
            autoComplete="current-password"
            error={form.formState.errors.leaderPassword?.message}
            {...form.register('leaderPassword')}
          />
          {alert ? <FormAlert>{alert}</FormAlert> : null}
          <div className="tm-form__actions">
            <Button variant="secondary" disabled={busy} onClick={() => void send(preview.reps, true)}>
              Check the rows
            </Button>
            <Button disabled={busy || !preview.checked} onClick={() => void send(preview.reps, false)}>
              {`Add all ${preview.reps.length} reps`}
            </Button>
          </div>
        </>
      ) : alert ? (
        <FormAlert>{alert}</FormAlert>
      ) : null}
    </section>
  );
}
