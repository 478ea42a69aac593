import { classNames } from '@digicard/ui';
import type { ReactNode } from 'react';
import { fieldId } from '../utils/validation';

interface RangeFieldProps {
  label: string;
  /** The document path it edits (gives the control's id). */
  path: string;
  value: number;
  min: number;
  max: number;
  step: number;
  /** Shown after the value, e.g. "%" or " px". */
  unit: string;
  /** Read after the value by screen readers, e.g. "percent". */
  unitName?: string;
  error?: string | undefined;
  onChange: (value: number) => void;
}

/** A slider (`<input type="range">`) with its value shown beside it (spec section 9 gives each range and step). */
export function RangeField({ label, path, value, min, max, step, unit, unitName, error, onChange }: RangeFieldProps) {
  const id = fieldId(path);
  const decimals = step < 1 ? 1 : 0;
  const shown = value.toFixed(decimals);
  return (
    <div className={classNames('ui-field pe-range', error && 'ui-field--invalid')}>
      <label className="ui-field__label" htmlFor={id}>
        {label}
      </label>
      <div className="pe-range__row">
        <input
          id={id}
          type="range"
          className="pe-range__input"
          min={min}
          max={max}
          step={step}
          value={value}
          aria-valuetext={unitName ? `${shown} ${unitName}` : shown}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : undefined}
          onChange={(event) => onChange(Number(Number(event.currentTarget.value).toFixed(decimals)))}
        />
        <output className="pe-range__value" htmlFor={id} aria-hidden="true">
          {`${shown}${unit}`}
        </output>
      </div>
      <FieldError id={`${id}-error`} error={error} />
    </div>
  );
}

interface ColourFieldProps {
  label: string;
  path: string;
  value: string;
  error?: string | undefined;
  onChange: (value: string) => void;
}

/** A colour picker (`<input type="color">`) with the picked `#rrggbb` shown beside it. */
export function ColourField({ label, path, value, error, onChange }: ColourFieldProps) {
  const id = fieldId(path);
  return (
    <div className={classNames('ui-field pe-colour', error && 'ui-field--invalid')}>
      <label className="ui-field__label" htmlFor={id}>
        {label}
      </label>
      <div className="pe-colour__row">
        <input
          id={id}
          type="color"
          className="pe-colour__input"
          value={/^#[0-9a-fA-F]{6}$/.test(value) ? value.toLowerCase() : '#000000'}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : undefined}
          onChange={(event) => onChange(event.currentTarget.value)}
        />
        <span className="pe-colour__value" aria-hidden="true">
          {value.toLowerCase()}
        </span>
      </div>
      <FieldError id={`${id}-error`} error={error} />
    </div>
  );
}

interface SelectFieldProps {
  label: string;
  path: string;
  value: string;
  options: ReadonlyArray<{ value: string; label: string }>;
  hint?: string | undefined;
  error?: string | undefined;
  disabled?: boolean;
  className?: string;
  onChange: (value: string) => void;
}

/** A labelled native `<select>` in the look of the ui-field controls. */
export function SelectField({ label, path, value, options, hint, error, disabled, className, onChange }: SelectFieldProps) {
  const id = fieldId(path);
  const describedBy = [hint ? `${id}-hint` : null, error ? `${id}-error` : null].filter(Boolean).join(' ') || undefined;
  const known = options.some((option) => option.value === value);
  return (
    <div className={classNames('ui-field', error && 'ui-field--invalid', className)}>
      <label className="ui-field__label" htmlFor={id}>
        {label}
      </label>
      {hint ? (
        <p id={`${id}-hint`} className="ui-field__hint">
          {hint}
        </p>
      ) : null}
      <select
        id={id}
        className="ui-field__control pe-select"
        value={value}
        disabled={disabled}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy}
        onChange={(event) => onChange(event.currentTarget.value)}
      >
        {known ? null : <option value={value}>Choose…</option>}
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
      <FieldError id={`${id}-error`} error={error} />
    </div>
  );
}

export function FieldError({ id, error }: { id: string; error: string | undefined }) {
  return error ? (
    <p id={id} className="ui-field__error">
      {error}
    </p>
  ) : null;
}

/** The upgrade message shown in place of a section's inputs the membership does not include. */
export function UpgradeNotice({ children }: { children: ReactNode }) {
  return <p className="pe-upgrade">{children}</p>;
}
