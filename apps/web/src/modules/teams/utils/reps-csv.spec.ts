import { describe, expect, it } from '@jest/globals';
import { parseCsv, repsFromCsv } from './reps-csv';

// The CSV import of a leader's reps: what a spreadsheet export looks like (quotes, semicolons, CRLF, a BOM), and the
// header row in any order or none.

describe('parseCsv', () => {
  it('splits rows and cells on commas or semicolons and any line break', () => {
    expect(parseCsv('a,b;c\r\nd,e,f\ng,h,i\rj,k,l')).toEqual([
      ['a', 'b', 'c'],
      ['d', 'e', 'f'],
      ['g', 'h', 'i'],
      ['j', 'k', 'l'],
    ]);
  });

  it('keeps quoted commas, doubled quotes and line breaks inside a cell', () => {
    expect(parseCsv('"Smith, Jr.","say ""hi""","two\nlines"\n')).toEqual([['Smith, Jr.', 'say "hi"', 'two\nlines']]);
  });

  it('drops a byte-order mark and blank rows, and keeps a last row without a line break', () => {
    expect(parseCsv('\uFEFFa,b\n\n , \nc,d')).toEqual([
      ['a', 'b'],
      ['c', 'd'],
    ]);
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

  it('reads nothing from an empty file', () => {
    expect(repsFromCsv('\n\n')).toEqual([]);
  });
});
