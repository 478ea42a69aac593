import { describe, expect, it } from '@jest/globals';
import { parseCsv, repsFromCsv } from './reps-csv';

// The CSV import of a leader's reps (parsed by Papa Parse): what a spreadsheet export looks like (quotes, a separator
// of its own, CRLF, a BOM), and the header row in any order or none.

describe('parseCsv', () => {
  it('splits rows on CRLF, LF or CR line ends', () => {
    const rows = [
      ['a', 'b', 'c'],
      ['d', 'e', 'f'],
    ];
    expect(parseCsv('a,b,c\r\nd,e,f\r\n')).toEqual(rows);
    expect(parseCsv('a,b,c\nd,e,f')).toEqual(rows);
    expect(parseCsv('a,b,c\rd,e,f\r')).toEqual(rows);
  });

  it('takes the file’s own separator: commas, or the semicolons or tabs some spreadsheets export', () => {
    expect(parseCsv('a;b;c\nd;e;f')).toEqual([
      ['a', 'b', 'c'],
      ['d', 'e', 'f'],
    ]);
    expect(parseCsv('a\tb\nc\td')).toEqual([
      ['a', 'b'],
      ['c', 'd'],
    ]);
  });

  it('keeps the other separator inside a cell: an unquoted "Smith; Jr" in a comma file is one cell', () => {
    expect(parseCsv('username,first name,last name\njsmith,John,Smith; Jr\nlerato,Lerato,Mokoena')).toEqual([
      ['username', 'first name', 'last name'],
      ['jsmith', 'John', 'Smith; Jr'],
      ['lerato', 'Lerato', 'Mokoena'],
    ]);
    expect(parseCsv('username;last name\nthabo;Mokoena, Jr')).toEqual([
      ['username', 'last name'],
      ['thabo', 'Mokoena, Jr'],
    ]);
  });

  it('keeps quoted commas, doubled quotes and line breaks (LF or CRLF) inside a cell', () => {
    expect(parseCsv('"Smith, Jr.","say ""hi""","two\nlines"\n')).toEqual([['Smith, Jr.', 'say "hi"', 'two\nlines']]);
    expect(parseCsv('a,"b\r\nc"\r\nd,e\r\n')).toEqual([
      ['a', 'b\r\nc'],
      ['d', 'e'],
    ]);
  });

  it('drops a byte-order mark and blank rows, and keeps a last row without a line break', () => {
    expect(parseCsv('\uFEFFa,b\n\n , \nc,d')).toEqual([
      ['a', 'b'],
      ['c', 'd'],
    ]);
    expect(parseCsv('\uFEFF"quoted first",b\r\n')).toEqual([['quoted first', 'b']]);
    expect(parseCsv('')).toEqual([]);
  });
});

describe('repsFromCsv', () => {
  it('reads the columns a header names, in any order and spelling, trimming each cell', () => {
    const csv = 'Email,Surname,First Name,Phone,Username\n thandi@example.co.za ,Nkosi,Thandi,082 555 0101,thandi\n';
    expect(repsFromCsv(csv)).toEqual([
      { username: 'thandi', firstName: 'Thandi', lastName: 'Nkosi', email: 'thandi@example.co.za', tel: '082 555 0101', password: '' },
    ]);
  });

  it('takes the columns in the documented order when there is no header row', () => {
    expect(repsFromCsv('sipho,Sipho,Dube,sipho@example.co.za,+27825550102,Secret-pass-1')).toEqual([
      {
        username: 'sipho',
        firstName: 'Sipho',
        lastName: 'Dube',
        email: 'sipho@example.co.za',
        tel: '+27825550102',
        password: 'Secret-pass-1',
      },
    ]);
  });

  it('ignores columns it does not know and leaves missing cells empty', () => {
    expect(repsFromCsv('username;fname;lname;notes\nlerato;Lerato;Mokoena;likes cards\nbongi;Bongi')).toEqual([
      { username: 'lerato', firstName: 'Lerato', lastName: 'Mokoena', email: '', tel: '', password: '' },
      { username: 'bongi', firstName: 'Bongi', lastName: '', email: '', tel: '', password: '' },
    ]);
  });

  it('reads a semicolon export with a BOM, CRLF and a quoted name holding a comma and a line break', () => {
    const csv = '\uFEFFUsername;First name;Last name;Email\r\nthabo;Thabo;"Mokoena, Jr\r\n(sales)";thabo@example.co.za\r\n';
    expect(repsFromCsv(csv)).toEqual([
      { username: 'thabo', firstName: 'Thabo', lastName: 'Mokoena, Jr\r\n(sales)', email: 'thabo@example.co.za', tel: '', password: '' },
    ]);
  });

  it('reads nothing from an empty file', () => {
    expect(repsFromCsv('\n\n')).toEqual([]);
  });
});
