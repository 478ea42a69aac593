import { RepCsvColumns } from '@digicard/contracts';

export type CsvRep = Record<(typeof RepCsvColumns)[number], string>;

/** Splits CSV text into rows of cells (quotes, doubled quotes, commas and line breaks inside quotes). */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  const src = text.replace(/^\uFEFF/, '');
  for (let i = 0; i < src.length; i++) {
    const ch = src[i]!;
    if (quoted) {
      if (ch === '"' && src[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else cell += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',' || ch === ';') {
      row.push(cell);
      cell = '';
    } else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && src[i + 1] === '\n') i++;
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
    } else cell += ch;
  }
  if (cell !== '' || row.length) {
    row.push(cell);
    rows.push(row);
  }
  return rows.filter((r) => r.some((c) => c.trim() !== ''));
}

const normalise = (header: string) =>
  header
    .trim()
    .toLowerCase()
    .replace(/[^a-z]/g, '');
const ALIASES: Record<string, (typeof RepCsvColumns)[number]> = {
  username: 'username',
  firstname: 'firstName',
  fname: 'firstName',
  lastname: 'lastName',
  lname: 'lastName',
  surname: 'lastName',
  email: 'email',
  tel: 'tel',
  phone: 'tel',
  password: 'password',
};

/**
 * The reps of a CSV file: a header row names the columns (username, first name, last name, email, phone, and an
 * optional password, in any order); without one, the columns are taken in that order.
 */
export function repsFromCsv(text: string): CsvRep[] {
  const rows = parseCsv(text);
  if (rows.length === 0) return [];
  const header = rows[0]!.map((h) => ALIASES[normalise(h)]);
  const hasHeader = header.filter(Boolean).length >= 3;
  const columns = hasHeader ? header : [...RepCsvColumns];
  return (hasHeader ? rows.slice(1) : rows).map((cells) => {
    const rep: CsvRep = { username: '', firstName: '', lastName: '', email: '', tel: '', password: '' };
    columns.forEach((column, i) => {
      if (column) rep[column] = (cells[i] ?? '').trim();
    });
    return rep;
  });
}
