import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * The documentation's own consistency: every relative link in README.md and docs/*.md reaches a file (and, with
 * a #fragment, a heading of that file, by GitHub's anchor rules), and every `npm run X` / `npm start` /
 * `npm test` the pages name is a script of package.json.
 */
const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const PAGES = ['README.md', ...readdirSync(join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];
const scripts: Record<string, string> = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).scripts;

/** The page's lines outside fenced code blocks (a `# comment` in a shell sample is no heading). */
function proseLines(text: string): string[] {
  const out: string[] = [];
  let fence: string | null = null;
  for (const line of text.split('\n')) {
    const open = /^\s*(```+|~~~+)/.exec(line);
    if (open) {
      if (fence === null) fence = open[1][0];
      else if (open[1][0] === fence) fence = null;
      out.push('');
      continue;
    }
    out.push(fence === null ? line : '');
  }
  return out;
}

/** GitHub's heading anchor: inline markup dropped, lower case, punctuation removed, each space a hyphen. */
export function slug(heading: string): string {
  const text = heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/`([^`]*)`/g, '$1')
    .replace(/<[^>]+>/g, '');
  return text
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');
}

function anchorsOf(file: string): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  for (const line of proseLines(readFileSync(file, 'utf8'))) {
    const heading = /^ {0,3}#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!heading) continue;
    const base = slug(heading[1]);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    anchors.add(n === 0 ? base : `${base}-${n}`);
  }
  return anchors;
}

/** Link targets outside code: inline links and images, and reference definitions. */
function linksOf(text: string): string[] {
  const targets: string[] = [];
  for (const raw of proseLines(text)) {
    const line = raw.replace(/`[^`]*`/g, '');
    for (const m of line.matchAll(/!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) targets.push(m[1]);
    const def = /^ {0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)/.exec(line);
    if (def) targets.push(def[1]);
  }
  return targets;
}

const isExternal = (target: string) => /^[a-z][a-z0-9+.-]*:/i.test(target);

describe('documentation links', () => {
  it('finds the pages and their links', () => {
    expect(PAGES).toContain('docs/configuration.md');
    const total = PAGES.reduce((n, page) => n + linksOf(readFileSync(join(ROOT, page), 'utf8')).length, 0);
    expect(total).toBeGreaterThan(20);
  });

  it('computes anchors as GitHub does', () => {
    expect(slug('Local servers for development: `npm run backends:up`')).toBe('local-servers-for-development-npm-run-backendsup');
    expect(slug('API4: Unrestricted resource consumption')).toBe('api4-unrestricted-resource-consumption');
    expect(slug('Keys, scopes and namespaces')).toBe('keys-scopes-and-namespaces');
    expect(slug('FerretDB and the Maven Central node against the real servers')).toBe(
      'ferretdb-and-the-maven-central-node-against-the-real-servers',
    );
  });

  for (const page of PAGES) {
    it(`${page}: every relative link and anchor resolves`, () => {
      const file = join(ROOT, page);
      const broken: string[] = [];
      for (const target of linksOf(readFileSync(file, 'utf8'))) {
        if (isExternal(target)) continue;
        const [pathPart, fragment] = target.split('#', 2) as [string, string | undefined];
        const dest = pathPart === '' ? file : resolve(dirname(file), decodeURIComponent(pathPart));
        if (!existsSync(dest)) {
          broken.push(`${target}: no such file ${relative(ROOT, dest)}`);
          continue;
        }
        if (fragment === undefined || fragment === '') continue;
        if (statSync(dest).isDirectory() || !dest.endsWith('.md')) {
          broken.push(`${target}: an anchor into something that is not a Markdown page`);
          continue;
        }
        if (!anchorsOf(dest).has(decodeURIComponent(fragment))) {
          broken.push(`${target}: no heading #${fragment} in ${relative(ROOT, dest)}`);
        }
      }
      expect(broken).toEqual([]);
    });

    it(`${page}: every npm script it names exists`, () => {
      const text = readFileSync(join(ROOT, page), 'utf8');
      const named = new Set<string>();
      for (const m of text.matchAll(/\bnpm run(?:\s+(?:--silent|-s))?\s+([A-Za-z0-9][\w:.-]*)/g)) named.add(m[1].replace(/[.:]+$/, ''));
      for (const m of text.matchAll(/\bnpm (start|test)\b/g)) named.add(m[1]);
      const missing = [...named].filter((name) => !(name in scripts));
      expect(missing).toEqual([]);
    });
  }

  it('README links every page of docs/', () => {
    const readme = linksOf(readFileSync(join(ROOT, 'README.md'), 'utf8')).map((t) => t.split('#')[0]);
    const unlinked = PAGES.filter((p) => p.startsWith('docs/') && !readme.includes(p));
    expect(unlinked).toEqual([]);
  });
});
