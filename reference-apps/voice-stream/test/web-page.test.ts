import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import test from 'ava';
import { buildWav } from '../src/domain/media/wav';
import { startVoiceServer, type VoiceServer } from '../src/server';
import { launchChromium, type Browser } from './support/chromium';
import { spokenPassage, TABLE_SENTENCE } from './support/speech-fixtures';
import { requireEnginePackages } from './support/system-packages';

let server: VoiceServer;
let browser: Browser;
let directory: string;
test.before(async () => {
  requireEnginePackages();
  server = await startVoiceServer();
  directory = mkdtempSync(path.join(tmpdir(), 'voice-page-'));
  const wav = path.join(directory, 'speech.wav');
  // The fake microphone loops this file: the sentence with pauses around it.
  writeFileSync(wav, buildWav(spokenPassage([TABLE_SENTENCE], 1500), 16000));
  browser = await launchChromium(wav);
});
// Each closed even when closing another failed: a server left running keeps the test worker alive.
test.after.always(async () => {
  try {
    await browser?.close();
  } finally {
    try {
      await server?.close();
    } finally {
      if (directory) rmSync(directory, { recursive: true, force: true, maxRetries: 20, retryDelay: 100 });
    }
  }
});

test('the page streams the (fake) microphone and shows the Spanish caption, and plays the speech', async (t) => {
  const key = await server.createApiKey('browser');
  await browser.navigate(`${server.url}/#key=${encodeURIComponent(key)}&to=es&speak=es&autostart=1`);
  let caption = '';
  for (let waited = 0; waited < 40_000 && !(caption.includes('mesa') && caption.includes('personas')); waited += 250) {
    await new Promise((resolve) => setTimeout(resolve, 250));
    caption = await browser.evaluate<string>("(document.getElementById('caption-es') || {}).textContent || ''");
  }
  t.log(`Spanish caption: ${caption}`);
  t.true(
    caption.includes('mesa') && caption.includes('personas'),
    `caption: "${caption}"; status: ${await browser.evaluate<string>("document.getElementById('status').textContent")}`,
  );
  const english = await browser.evaluate<string>("document.getElementById('caption-en').textContent");
  t.true(english.toLowerCase().includes('table for two people'), english);
  let spokenMs = 0;
  for (let waited = 0; waited < 10_000 && spokenMs < 1000; waited += 250) {
    await new Promise((resolve) => setTimeout(resolve, 250));
    spokenMs = Number(await browser.evaluate<string>('document.body.dataset.spokenMs || "0"'));
  }
  t.true(spokenMs >= 1000, `translated speech queued for playback: ${spokenMs} ms`);
  await browser.evaluate("document.getElementById('stop').click()");
  let status = '';
  for (let waited = 0; waited < 20_000 && status !== 'Finished.'; waited += 250) {
    await new Promise((resolve) => setTimeout(resolve, 250));
    status = await browser.evaluate<string>("document.getElementById('status').textContent");
  }
  t.is(status, 'Finished.');
});

test('the page is served at / with its scripts under /app/', async (t) => {
  const page = await fetch(`${server.url}/`);
  t.is(page.status, 200);
  t.regex(page.headers.get('content-type') ?? '', /text\/html/);
  t.regex(await page.text(), /<script src="\/app\/app.js">/);
  const worklet = await fetch(`${server.url}/app/pcm-capture-worklet.js`);
  t.is(worklet.status, 200);
  t.regex(await worklet.text(), /registerProcessor\('pcm-capture'/);
});
