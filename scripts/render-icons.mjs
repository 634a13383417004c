// Renders the app icons (web/icon-*.png, web/apple-touch-icon.png) from web/icon.svg with
// the Chromium the browser tests use, so the PNGs an installed app shows are the same
// drawing as the tab's SVG icon. Run by hand after changing icon.svg, then commit the PNGs:
//   NODE_PATH=node_modules node scripts/render-icons.mjs
// The maskable icon fills the whole square with the icon's background and keeps the
// drawing inside the central 80% circle, the part every launcher's mask leaves visible.
import { readFileSync, writeFileSync } from 'node:fs';
import { chromium } from 'playwright-core';

const web = new URL('../web/', import.meta.url);
const svg = readFileSync(new URL('icon.svg', web), 'utf8');
const plain = `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`;
const icons = [
  { file: 'icon-192.png', size: 192, maskable: false },
  { file: 'icon-512.png', size: 512, maskable: false },
  { file: 'icon-maskable-512.png', size: 512, maskable: true },
  { file: 'apple-touch-icon.png', size: 180, maskable: true }, // iOS rounds the corners itself
];

const browser = await chromium.launch({ executablePath: '/usr/bin/chromium' });
try {
  for (const { file, size, maskable } of icons) {
    const page = await browser.newPage({ viewport: { width: size, height: size }, deviceScaleFactor: 1 });
    const inner = maskable ? Math.round(size * 0.72) : size;
    await page.setContent(`<html><body style="margin:0;width:${size}px;height:${size}px;display:grid;place-items:center;background:${maskable ? '#0e1116' : 'transparent'}">
      <img src="${plain}" width="${inner}" height="${inner}"></body></html>`);
    await page.waitForFunction(() => document.images[0].complete);
    writeFileSync(new URL(file, web), await page.screenshot({ omitBackground: !maskable }));
    await page.close();
  }
} finally {
  await browser.close();
}
