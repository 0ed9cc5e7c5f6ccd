// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { pageDocument, prerenderedFile } from './prerender.mjs';

const SHELL = [
  '<!doctype html>\n<html lang="en">\n<head><title>Macula Planner</title>',
  '<script type="module" crossorigin src="/assets/index-1.js"></script>',
  '\n    <link rel="modulepreload" crossorigin href="/assets/react-2.js">\n    <link rel="modulepreload" crossorigin href="/assets/api-3.js">',
  '\n    <link rel="stylesheet" crossorigin href="/assets/index-4.css">',
  '</head>\n<body><div id="root"></div></body></html>',
].join('');
const ENTRY = '/assets/after-paint-5.js';

describe('a prerendered page', () => {
  it('is the shell with the page in #root, marked with its language, its title and <html lang>', () => {
    const page = pageDocument(SHELL, 'de', { html: '<main><h1>Anmelden</h1></main>', title: 'Anmelden – Macula Planner' }, ENTRY);
    expect(page).toContain('<html lang="de">');
    expect(page).toContain('<title>Anmelden – Macula Planner</title>');
    expect(page).toContain('<div id="root" data-prerendered="de"><main><h1>Anmelden</h1></main></div>');
  });

  it('loads the app through the entry that waits for the first paint, without preloading the app before it, and keeps the stylesheet', () => {
    const page = pageDocument(SHELL, 'en', { html: '<main></main>', title: 'Sign in' }, ENTRY);
    expect(page.match(/<script[^>]*>/g)).toEqual([`<script type="module" crossorigin src="${ENTRY}">`]);
    expect(page).not.toContain('modulepreload');
    expect(page).toContain('<link rel="stylesheet" crossorigin href="/assets/index-4.css">');
  });

  it('escapes its title, and keeps `$` in its title and markup as it is (no replacement patterns)', () => {
    const page = pageDocument(SHELL, 'en', { html: '<p>$& $1 $$</p>', title: 'A <b> & "c" $&' }, ENTRY);
    expect(page).toContain('<title>A &lt;b&gt; &amp; &quot;c&quot; $&amp;</title>');
    expect(page).toContain('<p>$& $1 $$</p>');
  });

  it('stops the build when the shell has nowhere to put the page', () => {
    expect(() => pageDocument(SHELL.replace('<div id="root"></div>', '<div id="app"></div>'), 'en', { html: '', title: '' }, ENTRY)).toThrow(/root element/);
    expect(() => pageDocument(SHELL.replace('<title>Macula Planner</title>', ''), 'en', { html: '', title: '' }, ENTRY)).toThrow(/title/);
    expect(() => pageDocument(SHELL.replace(/<script.*<\/script>/, ''), 'en', { html: '', title: '' }, ENTRY)).toThrow(/entry script/);
  });

  it('is written as prerendered/<lang>/<path>.html, where the server looks for it', () => {
    expect(prerenderedFile('de', '/sign-in').split(/[\\/]/)).toEqual(['prerendered', 'de', 'sign-in.html']);
  });
});
