// Every Markdown file of the repository points only at what exists: relative links (and their #anchors) lead to a
// file and a heading, and a file path written in backticks names a file of the repository. So no doc refers to a
// page outside the repository or to a file that was moved or deleted.
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, it } from '@jest/globals';

const ROOT = resolve(import.meta.dirname, '..', '..', '..');
const SKIP = new Set(['node_modules', 'dist', 'dist-ssr', '.nx', '.git', 'test-results', 'coverage', 'tmp']);

function markdownFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (SKIP.has(entry.name)) return [];
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return markdownFiles(path);
    return entry.name.endsWith('.md') ? [path] : [];
  });
}

/** GitHub's heading anchors: lower case, punctuation dropped, spaces to dashes, repeats numbered. */
export function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  let fenced = false;
  for (const line of markdown.split('\n')) {
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
    const heading = fenced ? null : /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!heading) continue;
    const text = heading[1]!.replace(/`/g, '').replace(/\[([^\]]*)\]\([^)]*\)/g, '$1');
    const slug = text
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return anchors;
}

/** The text outside fenced code blocks (examples there are not references). */
const prose = (markdown: string): string => markdown.replace(/^\s*(```|~~~)[\s\S]*?^\s*\1/gm, '');

/** Problems of one Markdown file: dangling links, missing anchors, backticked paths that name nothing. */
export function problemsOf(
  file: string,
  markdown: string,
  exists: (path: string) => boolean,
  anchorsAt: (path: string) => Set<string>,
): string[] {
  const problems: string[] = [];
  const text = prose(markdown);
  const where = relative(ROOT, file);
  for (const match of text.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) {
    const target = match[1]!;
    if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // https:, mailto: ...
    const [pathPart, anchor] = target.split('#', 2) as [string, string | undefined];
    const path = pathPart === '' ? file : resolve(dirname(file), decodeURIComponent(pathPart));
    if (pathPart !== '' && !exists(path)) {
      problems.push(`${where}: link to ${target}: no such file`);
      continue;
    }
    if (anchor && path.endsWith('.md') && !anchorsAt(path).has(anchor.toLowerCase()))
      problems.push(`${where}: link to ${target}: no such heading`);
  }
  // `docs/deploy.md`, `apps/gateway/src/http/route.ts`: a path from the repository's root (a path relative to some
  // project, like `src/main.ts`, is generic and not checked). Links are left out: they were checked above, and their
  // text may name a file of another repository.
  const withoutLinks = text.replace(/\[[^\]]*\]\([^)]*\)/g, '');
  const rooted = /`((?:apps|libs|tools|docs|k8s|nats|shared|spec)\/[\w@.\/-]+\.(?:md|ts|tsx|mjs|cjs|js|json|ya?ml|conf|sql|gz))`/g;
  for (const match of withoutLinks.matchAll(rooted)) {
    const path = match[1]!;
    if (/(^|\/)dist(-ssr)?\//.test(path)) continue; // build output
    if (!exists(join(ROOT, path))) problems.push(`${where}: \`${path}\`: no such file`);
  }
  // A bare `name.md` is a page of this repository, found next to the file or under docs/.
  const unlinked = text.replace(/\]\([^)]*\)/g, ']');
  for (const match of unlinked.matchAll(/\b([\w-]+\.md)\b/g)) {
    const name = match[1]!;
    const before = unlinked.slice(Math.max(0, match.index - 1), match.index);
    if (before === '/' || before === '.') continue; // part of a longer path, checked above
    if (![dirname(file), ROOT, join(ROOT, 'docs'), join(ROOT, 'docs', 'decisions')].some((dir) => exists(join(dir, name)))) {
      problems.push(`${where}: ${name}: no such page in the repository`);
    }
  }
  return problems;
}

const exists = (path: string): boolean => existsSync(path) && (statSync(path).isFile() || statSync(path).isDirectory());
const anchorCache = new Map<string, Set<string>>();
const anchorsAt = (path: string): Set<string> => {
  if (!anchorCache.has(path)) anchorCache.set(path, anchorsOf(readFileSync(path, 'utf8')));
  return anchorCache.get(path)!;
};

describe('links and references in the docs', () => {
  it('every relative link, anchor and file path in a Markdown file of the repository exists', () => {
    const files = markdownFiles(ROOT);
    assert.ok(files.length > 10, `found only ${files.length} Markdown files`);
    const problems = files.flatMap((file) => problemsOf(file, readFileSync(file, 'utf8'), exists, anchorsAt));
    assert.deepEqual([...problems], []); // (a copy: arrays from node:fs belong to another realm under Jest)
  });

  it('finds a dangling link, a missing heading, a missing path and a page outside the repository', () => {
    const file = join(ROOT, 'docs', 'example.md');
    const doc = [
      '# Title',
      'See [deploy](deploy.md#the-image), [gone](gone.md), [bad anchor](deploy.md#no-such-heading), [self](#title).',
      'Code in `apps/gateway/src/no-such-file.ts`; the sketch in `shared/notes/architecture.md`; as spec-notes.md says.',
      '```sh',
      'cat `not/checked/in-a-fence.md`',
      '```',
    ].join('\n');
    const problems = problemsOf(file, doc, exists, (path) => (path === file ? anchorsOf(doc) : anchorsAt(path)));
    assert.deepEqual(problems, [
      'docs/example.md: link to gone.md: no such file',
      'docs/example.md: link to deploy.md#no-such-heading: no such heading',
      'docs/example.md: `apps/gateway/src/no-such-file.ts`: no such file',
      'docs/example.md: `shared/notes/architecture.md`: no such file',
      'docs/example.md: spec-notes.md: no such page in the repository',
    ]);
  });
});
