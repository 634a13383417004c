// The page over wharf's own HTTPS (docs/remote.md) in a real Chromium: a browser that
// trusts exactly the self-signed certificate wharf made (by its public key, as a phone
// trusts it once installed) opens the page, drives a shell over WSS, and gets a secure
// context with the service worker; a browser that was not told to trust it stops at the
// certificate error. Every wait has a deadline; nothing sleeps.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { createHash, X509Certificate } from 'node:crypto';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import {
  artifactsDir, ownDaemon, newWindow, assertNoProblems, openAttached, waitForPrompt, run, waitForLine,
} from '../support/page.mjs';

const browsers = [];
after(async () => { for (const b of browsers) await b.close(); });

// Chromium trusting, beyond its roots, the certificates with these public keys.
async function browserTrusting(spkiHashes) {
  mkdirSync(artifactsDir, { recursive: true });
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync',
      ...(spkiHashes.length ? [`--ignore-certificate-errors-spki-list=${spkiHashes.join(',')}`] : [])],
  });
  browsers.push(browser);
  return browser;
}

function spkiHash(certPem) {
  const spki = new X509Certificate(certPem).publicKey.export({ type: 'spki', format: 'der' });
  return createHash('sha256').update(spki).digest('base64');
}

test('a browser trusting the generated certificate gets the page, a shell over WSS and a secure context', async (t) => {
  const daemon = await ownDaemon(t, { args: ['--tls', 'self-signed'] });
  assert.match(daemon.url, /^https:/);
  const cert = readFileSync(join(daemon.stateDir, 'tls', 'cert.pem'), 'utf8');
  const browser = await browserTrusting([spkiHash(cert)]);
  const page = await newWindow(t, browser, { width: 800, height: 500 });
  await openAttached(page, daemon);
  await waitForPrompt(page);
  await run(page, 'echo over-tls-$((6*7))');
  await waitForLine(page, 'over-tls-42');
  const state = await page.evaluate(async () => ({
    protocol: location.protocol, secure: window.isSecureContext,
    worker: 'serviceWorker' in navigator ? (await navigator.serviceWorker.ready).scope : null,
  }));
  assert.equal(state.protocol, 'https:');
  assert.equal(state.secure, true);
  assert.equal(state.worker, `${daemon.origin}/`);
  mkdirSync('/tmp/h/shots', { recursive: true });
  await page.screenshot({ path: '/tmp/h/shots/tls_page.png' });
  assertNoProblems(page);
});

test('a browser not told to trust it stops at the certificate error', async (t) => {
  const daemon = await ownDaemon(t, { args: ['--tls', 'self-signed'] });
  const browser = await browserTrusting([]);
  const page = await newWindow(t, browser);
  await assert.rejects(page.goto(daemon.url), /ERR_CERT_AUTHORITY_INVALID|ERR_CERT/);
});
