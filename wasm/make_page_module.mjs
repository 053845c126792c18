// Writes the page's ES module: wasm/page_module.mjs with the linked wasm
// embedded as a base64 data URI (wasm/CMakeLists.txt runs it after the link).
//   node make_page_module.mjs <module.wasm> <page_module.mjs> <out.mjs>
import { readFileSync, writeFileSync } from 'node:fs';

const [wasmPath, templatePath, outPath] = process.argv.slice(2);
const template = readFileSync(templatePath, 'utf8');
if (!template.includes("'WASM_DATA_URI'")) throw new Error(`${templatePath} has no 'WASM_DATA_URI' to fill`);
const uri = `data:application/octet-stream;base64,${readFileSync(wasmPath).toString('base64')}`;
// The quotes vite.config.mts looks for: "data:application/octet-stream;base64,…"
writeFileSync(outPath, template.replace("'WASM_DATA_URI'", JSON.stringify(uri)));
