/**
 * An account's address as shown to a browser signed in to another account that opened a link of this one
 * (decision 0010): the first character of the mailbox and of the domain, and the domain's last label, in lower case,
 * with a fixed `***` that says nothing of the lengths. `Naledi@Example.co.za` becomes `n***@e***.za`: enough for a
 * person to tell their own second address from a stranger's, not enough to write to it.
 */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf('@');
  const mailbox = at > 0 ? email.slice(0, at) : email;
  const domain = at > 0 ? email.slice(at + 1) : '';
  const labels = domain.split('.').filter((label) => label !== '');
  const tail = labels.length > 1 ? `.${labels.at(-1)!.toLowerCase()}` : '';
  return `${firstOf(mailbox)}***@${firstOf(domain)}***${tail}`;
}

/** The first character (a whole code point, so an accented or non-Latin letter is not cut in half). */
const firstOf = (text: string): string => (Array.from(text)[0] ?? '').toLowerCase();
