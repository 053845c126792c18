// Every message the catalogs carry can be shown: its key is named in the
// page's code (web/src, the catalogs aside), or it lies under a prefix the
// code completes at run time with an id from the request, the response or
// the catalog (tools/message_keys.mjs). A key no code can reach is weight
// the page carries for nothing: this test names it. Which ids a dynamic
// prefix meets is not checked here (the core decides them); a message for an
// id no response holds passes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { messageKeys } from '../../tools/message_keys.mjs';
import { root } from './page_modules.mjs';

const m = messageKeys(root);

test('the catalogs hold keys (the test reads them)', () => {
  assert.ok(m.keys.length > 500, `read ${m.keys.length} keys from zh-CN.ts`);
  assert.ok(m.dynamic.has('billing') && m.dynamic.has('notice.last') && m.dynamic.has('gpus.col'), [...m.dynamic].join(' '));
  // Named as t('…') alone, so the build ships them as numbers (vite.config.mts messageIds()).
  assert.ok(m.onlyTranslated.includes('app.title') && !m.onlyTranslated.includes('billing.spot') && !m.onlyTranslated.includes('billing'));
});

test('every message key is reachable from the page code', () => {
  assert.deepEqual(m.keys.filter((k) => !m.reachable(k)), []);
});
