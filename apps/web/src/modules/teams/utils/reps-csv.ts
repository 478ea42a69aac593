import { RepCsvColumns } from '@digicard/contracts';
import Papa from 'papaparse';

export type CsvRep = Record<(typeof RepCsvColumns)[number], string>;

/**
 * Splits CSV text into rows of cells with Papa Parse: quoted cells (with doubled quotes, commas, semicolons and line
 * breaks inside), a byte-order mark, CRLF, LF or CR line ends. The separator is the file's own, guessed from its
 * first rows: a comma, or the semicolon or tab some spreadsheets export; the other characters stay in the cells
 * (an unquoted "Smith; Jr" in a comma file is one cell). Rows with nothing but blanks are dropped.
 */
export function parseCsv(text: string): string[][] {
  const result = Papa.parse<string[]>(text.replace(/^\uFEFF/, ''), {
    delimitersToGuess: [',', ';', '\t'],
    skipEmptyLines: 'greedy',
  });
  return result.data;
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
