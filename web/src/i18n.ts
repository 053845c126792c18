// Message catalogs: zh-CN (default) and English. Every string the page shows
// comes from here; {name} placeholders are filled with text, never markup.
import type { zhCN } from './i18n/zh-CN.ts';

export type Lang = 'zh-CN' | 'en';
export type MessageKey = keyof typeof zhCN;
export type T = (key: MessageKey, params?: Record<string, string | number>) => string;
export type Catalogs = Record<Lang, Record<MessageKey, string>>;

// Filled by main.ts before anything renders. main.ts imports the catalogs
// after the rest of the page, so the bundle carries them at its end, after
// the code that names their keys: that order compresses better than the
// catalogs between the page's modules (docs/performance.md).
const CATALOGS = {} as Catalogs;
export function setCatalogs(catalogs: Catalogs): void {
  Object.assign(CATALOGS, catalogs);
}

// zh-CN unless the browser prefers English over any Chinese.
export function detectLang(languages: readonly string[]): Lang {
  for (const l of languages) {
    const lower = l.toLowerCase();
    if (lower.startsWith('zh')) return 'zh-CN';
    if (lower.startsWith('en')) return 'en';
  }
  return 'zh-CN';
}

// The built page names most keys by their number in the catalog instead
// (vite.config.mts, compactCatalogs()): both look a text up the same way.
export function translator(lang: Lang): T {
  const cat = CATALOGS[lang];
  return (key, params) => {
    const template = cat[key] ?? CATALOGS['zh-CN'][key] ?? key;
    if (!params) return template;
    return template.replace(/\{(\w+)\}/g, (m, name: string) => (name in params ? String(params[name]) : m));
  };
}

// Ids from the catalog or the response that have a message: "component.weights".
export function label(t: T, prefix: string, id: string): string {
  const key = `${prefix}.${id}` as MessageKey;
  const text = t(key);
  return text === key ? id : text;
}
