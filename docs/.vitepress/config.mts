import { defineConfig } from 'vitepress';

/**
 * The documentation site: `npm run docs:build` writes it to docs/.vitepress/dist (`npm run docs:dev` serves it).
 * A build fails on a dead link between pages; links out of docs/ (README, SECURITY.md, sources) are checked by
 * test/docs/links.test.ts instead.
 */
const pages = [
  ['Configuration', '/configuration'],
  ['API guide', '/api-guide'],
  ['Facts and timelines', '/facts-and-timelines'],
  ['Retrieval', '/retrieval'],
  ['Operations', '/operations'],
  ['Backup and migration', '/backup-and-migration'],
  ['Security', '/security'],
  ['Architecture', '/architecture'],
  ['Benchmarks', '/benchmarks'],
  ['Testing', '/testing'],
] as const;

export default defineConfig({
  title: 'Engram',
  description: 'A self-hostable long-term memory service for AI agents',
  cleanUrls: true,
  ignoreDeadLinks: [/^(\.\/)?\.\.\//],
  themeConfig: {
    nav: pages.slice(0, 4).map(([text, link]) => ({ text, link })),
    sidebar: [{ text: 'Engram', items: pages.map(([text, link]) => ({ text, link })) }],
    search: { provider: 'local' },
  },
});
