export interface Spec {
  readonly label: string;
  readonly value: string;
}

/** Label and value pairs (dimensions, weight, material, ...) as a description list. Empty values are left out. */
export function SpecList({ specs, labelledBy }: { specs: readonly Spec[]; labelledBy?: string }) {
  return (
    <dl className="spec-list" aria-labelledby={labelledBy}>
      {specs
        .filter((spec) => spec.value.trim() !== '')
        .map((spec) => (
          <div key={spec.label} className="spec-list__row">
            <dt className="spec-list__label">{spec.label}</dt>
            <dd className="spec-list__value">{spec.value}</dd>
          </div>
        ))}
    </dl>
  );
}
