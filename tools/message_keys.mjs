// How the page's code (web/src, the catalogs aside) names its messages, read
// from the source text: the catalog's keys, the prefixes the code completes
// at run time with an id from the request, the response or the catalog
// (label(t, 'billing', id), opts(ctx, 'precision', …), t(`gpus.col.${c}`), a
// prefix chosen from a union of literals), and the keys the code names only
// as the direct argument of a translator call, t('…') (ctx.t, this.t). Read
// by tests/js/message_keys.test.mjs (no key the code cannot reach) and by
// vite.config.mts messageIds() (those last keys ship as numbers).
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

// A translator call whose first argument is a key ('…', group 2) or a
// choice between two keys (… ? '…' : '…', groups 3 to 5).
export const TRANSLATED = /\b(ctx\.t|this\.t|t)\((?:'([\w./\-]+)'|([^(),'`]*?(?:'[\w\-]*'[^(),'`]*?)?) \? '([\w./\-]+)' : '([\w./\-]+)'(?=[),]))/;

export function messageKeys(root) {
  const src = path.join(root, 'web/src');
  const files = ['', 'views']
    .flatMap((dir) => readdirSync(path.join(src, dir)).filter((f) => f.endsWith('.ts')).map((f) => path.join(src, dir, f)));
  const code = files.map((f) => readFileSync(f, 'utf8')).join('\n');
  const catalog = readFileSync(path.join(src, 'i18n/zh-CN.ts'), 'utf8');
  const keys = [...catalog.matchAll(/^ {2}'?([\w./\-]+)'?: /gm)].map((m) => m[1]);

  const spellings = readFileSync(path.join(src, 'spellings.ts'), 'utf8');
  const dynamic = new Set([
    ...[...code.matchAll(/\b(?:label|opts)\([^,()]+, ['`]([\w.\-]+)['`.]/g)].map((m) => m[1]),
    // t(`gpus.col.${c}` as never), t(`sci.${key}.help` as never)
    ...[...code.matchAll(/`([\w.\-]+)\.\$\{[^`]*` as never/g)].map((m) => m[1]),
    // `${prefix}.${…}` with prefix: 'notice.last' | 'notice.projects'
    ...[...code.matchAll(/'([\w\-]+\.[\w.\-]+)'(?= \| ')|(?<=' \| )'([\w\-]+\.[\w.\-]+)'/g)].map((m) => m[1] ?? m[2]),
    // A workload change's value, named under its field when it is one of the
    // contract's spellings (views/budget.ts, changeText: label(t, key, value)).
    ...keys.filter((k) => k.startsWith('field.')).map((k) => k.slice('field.'.length))
      .filter((f) => new RegExp(`^export const ${f.toUpperCase()}(_\\w+)? =`, 'm').test(spellings)),
  ]);
  const count = (text) => code.split(text).length - 1;
  const named = (k) => count(`'${k}'`) + count(`"${k}"`) + count(`\`${k}`);
  const underDynamic = (k) => {
    for (let i = k.lastIndexOf('.'); i > 0; i = k.lastIndexOf('.', i - 1)) if (dynamic.has(k.slice(0, i))) return true;
    return false;
  };
  // Translator calls with a key, or a choice of two keys (t(full ? 'a' : 'b')).
  const directCounts = new Map();
  for (const m of code.matchAll(new RegExp(TRANSLATED.source, 'g'))) {
    for (const k of [m[2], m[4], m[5]]) if (k) directCounts.set(k, (directCounts.get(k) ?? 0) + 1);
  }
  const direct = (k) => directCounts.get(k) ?? 0;
  return {
    keys,
    dynamic,
    reachable: (k) => named(k) > 0 || underDynamic(k),
    // Keys named only as t('…') and under no run-time prefix: the code never
    // needs their text as a string, so the build may name them otherwise.
    onlyTranslated: keys.filter((k) => !dynamic.has(k) && !underDynamic(k) && named(k) > 0 && named(k) === direct(k)),
  };
}
