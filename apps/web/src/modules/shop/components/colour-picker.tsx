import { useId } from 'react';

/** How each catalogue colour looks in its swatch (the card's material is in the item's name beside it). */
const SWATCH: Record<string, string> = {
  black: '#151515',
  white: '#ffffff',
  bamboo: '#c9a66b',
  silver: 'linear-gradient(135deg, #e6e8ea, #a9aeb3)',
  gold: 'linear-gradient(135deg, #f3d77a, #b8912b)',
};

/**
 * The card's colour, as radio buttons with a swatch each (one of the item's `colors`; the server checks it again).
 * A card that comes in one colour shows it, with nothing to choose.
 */
export function ColourPicker({
  colours,
  value,
  onChange,
}: {
  colours: readonly string[];
  value: string;
  onChange: (colour: string) => void;
}) {
  const name = useId();
  if (colours.length <= 1) {
    return <p className="colour-picker__only">{`Colour: ${colours[0] ?? ''}`}</p>;
  }
  return (
    <fieldset className="colour-picker">
      <legend className="colour-picker__legend">Colour</legend>
      {colours.map((colour) => (
        <label key={colour} className="colour-picker__option">
          <input type="radio" name={name} value={colour} checked={value === colour} onChange={() => onChange(colour)} />
          <span className="colour-picker__swatch" aria-hidden="true" style={{ background: SWATCH[colour.toLowerCase()] ?? '#cccccc' }} />
          <span>{colour}</span>
        </label>
      ))}
    </fieldset>
  );
}
