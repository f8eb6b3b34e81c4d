import { readFileSync } from 'node:fs';
import { launchBrowser, screenshot } from './harness.js';
const views = JSON.parse(readFileSync('/tmp/views.json', 'utf8'));
const server = { url: 'http://127.0.0.1:8765', stop: async () => {} };
const browser = await launchBrowser();
const width = Number(process.env.W ?? 1280);
const page = await (await browser.newContext({ viewport: { width, height: 860 } })).newPage();
page.on('pageerror', (e) => console.log('pageerror', e));
page.on('console', (m) => m.type() === 'error' && console.log('console', m.text()));
await page.goto(server.url + '/index.html');
for (const [ruleset, snaps] of Object.entries(views)) {
  for (const snap of snaps) {
    await page.goto(server.url + '/index.html');
    await page.setContent('<html><head><link rel="stylesheet" href="' + server.url + '/style.css"></head><body><main id="main"></main></body></html>');
    await page.evaluate(async ({ url, ruleset, snap }) => {
      const { MatchView } = await import(url + '/views/match_view.js');
      const { rulesetUi } = await import(url + '/rulesets/index.js');
      const view = new MatchView({ ruleset: rulesetUi(ruleset), act: (a) => console.log(JSON.stringify(a)) });
      view.applied(snap.step, 0, snap.events);
      const n = snap.view.players?.length ?? snap.view.seats?.length ?? 2;
      view.update({ view: snap.view, seat: 0, toAct: snap.to_act ?? null, outcome: null, names: ['Ada', 'Bob', 'Cy', 'Dee'].slice(0, n) });
      document.getElementById('main').append(view.element);
    }, { url: server.url, ruleset, snap });
    await page.waitForTimeout(200);
    await screenshot(page, `preview-${ruleset}-${snap.step}-${width}`);
  }
}
await browser.close(); await server.stop();
