// The page updates in place: a change re-renders by morphing the page's tree
// (web/src/dom.ts), so form controls are created once and kept, a control
// that holds focus keeps what is typed in it and its selection, a click in
// progress is not lost to a re-render, and a change replaces few nodes.
// Timing is measured by tools/bench_page.mjs, not here. Both languages.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, open, setField } from './harness.mjs';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

const LANGS = [
  { locale: 'zh-CN', saved: '已保存项目' },
  { locale: 'en-US', saved: 'Saved project' },
];

// The full page is there (the planner has come and the form is rendered).
async function openFull(locale) {
  const o = await open(browser, { locale });
  await o.page.waitForSelector('#budget-total');
  await o.page.waitForSelector('[data-path="workload.micro_batch"]');
  return o;
}

// Every form control on the page, remembered in the page as elements, each
// with its region (header, form, results) and a name: its key, path or id.
const CONTROLS = '#app input, #app select, #app textarea, #app button';
const rememberControls = (page) => page.evaluate((sel) => {
  const name = (el) => el.getAttribute('data-key') ?? el.getAttribute('data-path') ?? el.getAttribute('data-apply') ?? el.id;
  const region = (el) => (el.closest('header') ? 'header' : el.closest('.inputs') ? 'form' : 'results');
  window.__controls = [...document.querySelectorAll(sel)].map((el) => ({ el, name: name(el), region: region(el) }));
  return window.__controls.length;
}, CONTROLS);

// Of the remembered controls of a region: those no longer on the page, and
// those whose name (one on the page) now belongs to another element.
const lostControls = (page, region) => page.evaluate(([sel, region]) => {
  const name = (el) => el.getAttribute('data-key') ?? el.getAttribute('data-path') ?? el.getAttribute('data-apply') ?? el.id;
  const mine = window.__controls.filter((c) => c.region === region);
  const count = new Map();
  for (const el of document.querySelectorAll(sel)) count.set(name(el), [...(count.get(name(el)) ?? []), el]);
  return {
    // Detached: gone from the page while a control of its name is still
    // there (or it has no name). A control whose content left with the
    // change (a remedy the new plan no longer needs) is not a re-render's loss.
    detached: mine.filter((c) => !c.el.isConnected && (!c.name || count.has(c.name))).map((c) => c.name || c.el.outerHTML.slice(0, 60)),
    replaced: mine.filter((c) => c.name && count.get(c.name)?.length === 1 && count.get(c.name)[0] !== c.el).map((c) => c.name),
  };
}, [CONTROLS, region]);

for (const L of LANGS) {
  test(`${L.locale}: an input change keeps every form control on the page the same element`, async () => {
    const { page, context, errors } = await openFull(L.locale);
    const n = await rememberControls(page);
    assert.ok(n > 50, `controls on the page: ${n}`);
    const before = await setField(page, '[data-path="workload.micro_batch"]', 2);
    assert.notEqual(await page.textContent('#summary-text'), before, 'the change re-planned');
    for (const region of ['header', 'form', 'results']) {
      assert.deepEqual(await lostControls(page, region), { detached: [], replaced: [] }, region);
    }
    assert.deepEqual(errors, []);
    await context.close();
  });

  test(`${L.locale}: a change that re-renders the whole form (training method) keeps the header's and the form's controls`, async () => {
    const { page, context, errors } = await openFull(L.locale);
    await rememberControls(page);
    await page.selectOption('[data-path="workload.method"]', 'full');
    await page.waitForTimeout(100);
    for (const region of ['header', 'form']) {
      const lost = await lostControls(page, region);
      // Fields the new method does not have (LoRA's rank and targets) leave; no other control does.
      lost.detached = lost.detached.filter((x) => !/^workload\.lora\./.test(x));
      assert.deepEqual(lost, { detached: [], replaced: [] }, region);
    }
    assert.equal(await page.inputValue('[data-path="workload.method"]'), 'full');
    assert.deepEqual(errors, []);
    await context.close();
  });

  test(`${L.locale}: a re-render keeps the focused field's half-typed value and selection`, async () => {
    const { page, context, errors } = await openFull(L.locale);
    // The results re-render (a change elsewhere) while the project name is being typed.
    await page.click('#project-save-name');
    await page.keyboard.type('Run A');
    await page.evaluate(() => document.getElementById('project-save-name').setSelectionRange(1, 4));
    await page.evaluate(() => { window.__name = document.getElementById('project-save-name'); });
    const before = await page.textContent('#summary-text');
    await page.evaluate(() => {
      const mb = document.querySelector('[data-path="workload.micro_batch"]');
      mb.value = '2';
      mb.dispatchEvent(new Event('change', { bubbles: true }));
    });
    assert.notEqual(await page.textContent('#summary-text'), before, 'the change re-rendered the results');
    assert.deepEqual(await page.evaluate(() => {
      const el = document.activeElement;
      return { same: el === window.__name, value: el.value, start: el.selectionStart, end: el.selectionEnd };
    }), { same: true, value: 'Run A', start: 1, end: 4 });

    // The whole page re-renders (the training method) while the title is being typed.
    await page.click('#project-title');
    await page.keyboard.type('Thesis');
    await page.evaluate(() => {
      const el = document.getElementById('project-title');
      el.setSelectionRange(2, 5);
      window.__title = el;
      const m = document.querySelector('[data-path="workload.method"]');
      m.value = 'full';
      m.dispatchEvent(new Event('change', { bubbles: true }));
    });
    assert.deepEqual(await page.evaluate(() => {
      const el = document.activeElement;
      return { same: el === window.__title, value: el.value, start: el.selectionStart, end: el.selectionEnd, method: document.querySelector('[data-path="workload.method"]').value };
    }), { same: true, value: 'Thesis', start: 2, end: 5, method: 'full' });
    assert.deepEqual(errors, []);
    await context.close();
  });

  test(`${L.locale}: type a title, then a project name, Save as project: saved under the typed name`, async () => {
    const { page, context, errors } = await openFull(L.locale);
    await page.click('#project-title');
    await page.keyboard.type('My thesis');
    await page.waitForTimeout(300);
    // The title's change event fires as the name field is clicked, and re-renders the results.
    await page.click('#project-save-name');
    await page.keyboard.press('ControlOrMeta+A');
    await page.keyboard.type('Run A');
    await page.click('#project-save');
    await page.waitForSelector('table.projects tr[data-project]');
    const stored = await page.evaluate(() => JSON.parse(localStorage.getItem('gpuplan.projects')).projects.map((p) => [p.name, p.state.title]));
    assert.deepEqual(stored, [['Run A', 'My thesis']]);
    assert.match(await page.textContent('.notes'), new RegExp(`${L.saved}.*Run A`));
    assert.deepEqual(errors, []);
    await context.close();
  });

  test(`${L.locale}: a click on Save is not lost when the page re-renders between mouse down and up`, async () => {
    const { page, context, errors } = await openFull(L.locale);
    await page.fill('#project-save-name', 'Click kept');
    const box = await page.locator('#project-save').boundingBox();
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.down();
    // A change lands between the press and the release (a debounced field, a
    // title's change event on blur): the results re-render.
    const before = await page.textContent('#summary-text');
    await page.evaluate(() => {
      const mb = document.querySelector('[data-path="workload.micro_batch"]');
      mb.value = '2';
      mb.dispatchEvent(new Event('change', { bubbles: true }));
    });
    assert.notEqual(await page.textContent('#summary-text'), before);
    // The new plan may move the button (a line above it came or went): the
    // pointer follows it, as a hand would. A click is still lost if the
    // button was replaced, since mouse down and up then hit two elements.
    const after = await page.locator('#project-save').boundingBox();
    await page.mouse.move(after.x + after.width / 2, after.y + after.height / 2);
    await page.mouse.up();
    await page.waitForSelector('table.projects tr[data-project]', { timeout: 2000 });
    assert.equal(await page.locator('table.projects tr[data-project]').count(), 1);
    assert.match(await page.textContent('table.projects'), /Click kept/);
    assert.deepEqual(errors, []);
    await context.close();
  });

  test(`${L.locale}: an input change replaces no form control and few nodes`, async () => {
    const { page, context, errors } = await openFull(L.locale);
    // Two changes to warm up (the advice and its deferred second pass settle).
    // A control may leave with what it is about (a remedy that no longer
    // applies); none is taken down and put back.
    await setField(page, '[data-path="workload.micro_batch"]', 2);
    await setField(page, '[data-path="workload.micro_batch"]', 4);
    const counts = [];
    for (const value of [2, 4, 2]) {
      await page.evaluate(() => {
        window.__removed = { nodes: 0, elements: 0, controls: [] };
        window.__obs = new MutationObserver((records) => {
          for (const r of records) {
            for (const n of r.removedNodes) {
              window.__removed.nodes += 1;
              if (n.nodeType !== 1) continue;
              const all = [n, ...n.querySelectorAll('*')];
              window.__removed.elements += all.length;
              window.__removed.controls.push(...all.filter((e) => e.matches('input, select, textarea, button')));
            }
          }
        });
        window.__obs.observe(document.getElementById('app'), { childList: true, subtree: true });
      });
      await setField(page, '[data-path="workload.micro_batch"]', value);
      counts.push(await page.evaluate(() => {
        window.__obs.takeRecords();
        window.__obs.disconnect();
        const r = window.__removed;
        // A removed control is replaced when one like it (same key, path,
        // action or id, else the same text) is on the page now.
        const name = (el) => el.getAttribute('data-key') ?? el.getAttribute('data-path') ?? el.getAttribute('data-apply') ?? (el.id || `${el.tagName}:${el.textContent}`);
        const now = new Set([...document.querySelectorAll('#app input, #app select, #app textarea, #app button')].map(name));
        return { nodes: r.nodes, elements: r.elements, removedControls: r.controls.length,
          replacedControls: r.controls.filter((el) => now.has(name(el))).map(name), total: document.querySelectorAll('#app *').length };
      }));
    }
    for (const c of counts) {
      assert.deepEqual(c.replacedControls, [], `form controls replaced by a change: ${c.replacedControls.length} (${c.replacedControls.slice(0, 8).join(', ')}…), ${c.elements} elements removed`);
      // A change rewrites figures in place; a few rows may come and go (the
      // advice, a warning), never a section: under 2 % of the page's elements.
      assert.ok(c.elements < c.total * 0.02, `elements removed by a change: ${JSON.stringify(c)}`);
    }
    assert.deepEqual(errors, []);
    await context.close();
  });
}

// A change's link (the address bar) and its stored last inputs are written
// after its figures are painted, once for the changes before that frame: the
// writes are off the repaint's path (docs/performance.md). Nothing is lost to
// the wait: copying the link writes them first, and so does a reload.
for (const L of LANGS) {
  test(`${L.locale}: a change's link and stored inputs follow it after the repaint; a reload at once keeps it`, async () => {
    const { page, context, errors } = await openFull(L.locale);
    const out = await page.evaluate(async () => {
      let writes = 0;
      const replace = history.replaceState.bind(history);
      history.replaceState = (...a) => { writes += 1; return replace(...a); };
      const el = document.querySelector('[data-path="workload.micro_batch"]');
      const before = location.hash;
      const change = (v) => { el.value = String(v); el.dispatchEvent(new Event('change', { bubbles: true })); };
      change(3);
      change(5);
      const during = location.hash;
      await new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
      const stored = JSON.parse(localStorage.getItem('gpuplan.last') ?? '{}');
      return { before, during, after: location.hash, writes, stored: JSON.stringify(stored) };
    });
    assert.equal(out.during, out.before, 'not written in the change\'s own task');
    assert.notEqual(out.after, out.before, 'written after the frame');
    assert.equal(out.writes, 1, 'one write for the two changes before the frame');
    assert.match(out.stored, /"micro_batch":5/);
    // A reload in the change's own task: the tab's going writes it first.
    await page.evaluate(() => {
      const el = document.querySelector('[data-path="workload.micro_batch"]');
      el.value = '7';
      el.dispatchEvent(new Event('change', { bubbles: true }));
      location.reload();
    });
    await page.waitForSelector('#budget-total');
    await page.waitForSelector('[data-path="workload.micro_batch"]');
    assert.equal(await page.inputValue('[data-path="workload.micro_batch"]'), '7');
    assert.deepEqual(errors, []);
    await context.close();
  });
}
