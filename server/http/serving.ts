// Serving like production: the built SPA with its pre-compressed assets, cache rules per kind of file,
// no source maps, the history fallback for client-side routes, and compressed API answers.
import compress from '@fastify/compress';
import fastifyStatic, { type SetHeadersResponse } from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { existsSync } from 'node:fs';
import { join, sep } from 'node:path';
import Negotiator from 'negotiator';
import type { Lang } from '../i18n';
import { badRequest, notFound } from './errors';

/** Hashed build output: a new build gives new names, so a browser may keep each file for a year. */
export const ASSET_CACHE = 'public, max-age=31536000, immutable';
/** The page names the current hashed assets: a browser asks again (cheap with ETag) before using it. */
export const PAGE_CACHE = 'no-cache';
/** Other files of the SPA (favicon, fonts outside /assets): kept for an hour. */
export const OTHER_CACHE = 'public, max-age=3600';

/** Answers below this size go out as they are: compressing them costs more than it saves. */
export const COMPRESS_THRESHOLD_BYTES = 1024;

// Text the server sends: JSON, HTML, JS, CSS, SVG. Not JPEG (compressed already) and not
// application/octet-stream (NPT parameter sets: binary and small), which the plugin compresses by default.
const COMPRESSIBLE = /^text\/(?!event-stream)|[+/]json(?:;|$)|javascript|[+/]xml(?:;|$)/;

// Source maps (1.9 MB of our source) are for developers' machines, never served.
const SOURCE_MAP = /\.map(?:\.(?:br|gz))?$/i;

/** The path as the file server reads it (`app.js.m%61p` is `app.js.map`); null when it cannot be decoded. */
function decodedPath(pathname: string): string | null {
  try {
    return decodeURIComponent(pathname);
  } catch {
    return null;
  }
}

/** A `..` segment, however spelt (`%2e%2e`, `..%2f`, a backslash): the path climbs out of where it points. */
const CLIMBING_SEGMENT = /(?:^|[/\\])\.\.(?:[/\\]|$)/;

/**
 * Refuses a path with a `..` segment before anything reads it (`curl --path-as-is /../../etc/passwd`): the
 * file server would refuse it as a 403 that surfaced as a 500. No page of ours has one (400); under /api it
 * can only be an id, which then names no resource (404, as the contract lists for every id).
 */
export function refuseClimbingPaths(app: FastifyInstance): void {
  app.addHook('onRequest', async (request) => {
    const path = decodedPath(request.url.split('?')[0]);
    if (path === null || !CLIMBING_SEGMENT.test(path)) return;
    throw request.url.startsWith('/api/') ? notFound() : badRequest();
  });
}

function isServable(pathname: string): boolean {
  const path = decodedPath(pathname);
  // A folder (`/`) is no file: with pre-compressed files beside index.html and no accepted encoding,
  // @fastify/send answered `/` with a 403 turned 500. The page fallback sends index.html instead.
  return path !== null && !SOURCE_MAP.test(path) && !path.endsWith('/');
}

/**
 * Compresses API answers above the threshold by Accept-Encoding (brotli, gzip). Registered before the
 * routes, as the plugin hooks into each route as it is added. Request bodies are never inflated: a small
 * compressed upload could unpack to far more than the body limit.
 */
export async function installCompression(app: FastifyInstance): Promise<void> {
  await app.register(compress, {
    threshold: COMPRESS_THRESHOLD_BYTES,
    encodings: ['br', 'gzip'],
    customTypes: COMPRESSIBLE,
    globalDecompression: false,
  });
}

/** Where scripts/prerender.mjs writes the public pages as HTML: `<lang>/<path>.html` below the build. */
const PRERENDERED_DIR = 'prerendered';
const PAGE_LANGUAGES: readonly Lang[] = ['en', 'de'];
/** The SPA's note of its UI language (src/lib/i18n.ts, LANGUAGE_COOKIE). */
const LANGUAGE_COOKIE = /(?:^|;\s*)lang=(en|de)(?=;|$)/;

/** The language a page is sent in: the SPA's own choice when it left one, else the browser's, else English. */
export function pageLanguage(request: FastifyRequest): Lang {
  const chosen = LANGUAGE_COOKIE.exec(request.headers.cookie ?? '')?.[1] as Lang | undefined;
  return chosen ?? (new Negotiator(request.raw).language([...PAGE_LANGUAGES]) as Lang | undefined) ?? 'en';
}

function cacheHeaders(spaDir: string) {
  const assets = `${spaDir}${sep}assets${sep}`;
  const prerendered = `${spaDir}${sep}${PRERENDERED_DIR}${sep}`;
  return (res: SetHeadersResponse, path: string) => {
    const inAssets = path.startsWith(assets);
    res.setHeader('Cache-Control', inAssets ? ASSET_CACHE : path.endsWith('.html') ? PAGE_CACHE : OTHER_CACHE);
    // The same URL answers brotli, gzip or plain bytes depending on the request, and a prerendered page in the
    // language of its cookie or Accept-Language: caches must keep them apart.
    res.setHeader('Vary', path.startsWith(prerendered) ? 'Accept-Encoding, Accept-Language, Cookie' : 'Accept-Encoding');
  };
}

/**
 * The built SPA from `spaDir`: `name.br` or `name.gz` beside a file is sent instead of it when the
 * browser accepts that encoding. Files are looked up per request (a rebuild that swaps the folder in is
 * served at once); a missing file falls through to `spaPageFallback`.
 */
export async function installSpa(app: FastifyInstance, spaDir: string): Promise<void> {
  await app.register(fastifyStatic, {
    root: spaDir,
    index: false,
    cacheControl: false,
    preCompressed: true,
    allowedPath: isServable,
    setHeaders: cacheHeaders(spaDir),
  });
}

/** The page of `path` as the build rendered it in `language`, relative to the build; null if it has none. */
function prerenderedPage(spaDir: string, path: string, language: Lang): string | null {
  const page = path.replace(/\/+$/, '');
  // Only a path of letters, digits and dashes names a file the build may have written.
  if (!/^(?:\/[a-z0-9-]+)+$/.test(page)) return null;
  const file = `${PRERENDERED_DIR}/${language}${page}.html`;
  return existsSync(join(spaDir, file)) ? file : null;
}

/**
 * The SPA's routes are client-side: an unknown page path (GET, outside /api, no file extension) gets
 * index.html, or the page the build rendered for that path in the visitor's language (scripts/prerender.mjs);
 * unknown files and API paths are left to the 404 envelope (null).
 */
export function spaPageFallback(spaDir: string | null) {
  return (request: FastifyRequest, reply: FastifyReply): FastifyReply | null => {
    const path = decodedPath(request.url.split('?')[0]);
    const wantsPage = spaDir && path !== null && request.method === 'GET' && !path.startsWith('/api') && !/\.\w+$/.test(path);
    if (!wantsPage) return null;
    return reply.sendFile(prerenderedPage(spaDir, path, pageLanguage(request)) ?? 'index.html');
  };
}
