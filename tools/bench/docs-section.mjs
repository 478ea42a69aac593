// Each benchmark owns one section of a shared docs file, between `<!-- bench:<key> -->` and `<!-- /bench:<key> -->`:
// it rewrites its own section and leaves everything else in the file as it is.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';

/** Replaces the section `key` of `file` with `text` (appended when absent; `legacy` is an older unmarked copy to replace). */
export function writeSection(file, key, text, legacy) {
  const start = `<!-- bench:${key} -->`;
  const end = `<!-- /bench:${key} -->`;
  const block = `${start}\n${text.trim()}\n${end}`;
  let doc = existsSync(file) ? readFileSync(file, 'utf8') : '# Benchmarks\n';
  const a = doc.indexOf(start);
  const b = doc.indexOf(end);
  if (a >= 0 && b > a) doc = doc.slice(0, a) + block + doc.slice(b + end.length);
  else if (legacy && legacy.test(doc)) doc = doc.replace(legacy, `${block}\n`);
  else doc = `${doc.trimEnd()}\n\n${block}\n`;
  writeFileSync(file, doc);
}
