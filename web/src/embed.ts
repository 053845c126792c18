// Embed mode (?embed=1): a compact page for a wiki iframe. The page reports
// its height to the parent so the wiki can size the frame; the message
// carries a number only, so it leaks nothing about the user's inputs.
export const HEIGHT_MESSAGE = 'gpuplan:height';

export function isEmbed(search: string): boolean {
  return new URLSearchParams(search).get('embed') === '1';
}

export function reportHeight(): void {
  if (window.parent === window) return;
  let last = 0;
  const send = (): void => {
    // The body's own height, not the document's scroll height: that is never
    // less than the frame itself, so a page that got shorter (another
    // language, a section closed) would keep its old height in the wiki. The
    // body is a flow root in embed mode (styles.css), so no child's margin
    // lies outside it.
    const height = Math.ceil(document.body.getBoundingClientRect().height);
    if (height === last) return;
    last = height;
    window.parent.postMessage({ type: HEIGHT_MESSAGE, height }, '*');
  };
  new ResizeObserver(send).observe(document.body);
  send();
}

// A page opened from a file (file://): its links and embed codes point at
// this computer's disk and open nowhere else.
export function isLocalPage(url: string): boolean {
  return /^file:/i.test(url);
}

export function iframeSnippet(pageUrl: string, hash: string): string {
  const src = `${pageUrl.split('#')[0].split('?')[0]}?embed=1${hash}`;
  return [
    `<iframe id="gpuplan" src="${src.replace(/"/g, '&quot;')}" title="GPU 租用规划 / GPU rental planner"`,
    '        style="width:100%;border:0;min-height:600px" loading="lazy"></iframe>',
    '<script>',
    '  // gpuplan reports its height; only trust messages from the frame itself.',
    "  window.addEventListener('message', function (e) {",
    "    var f = document.getElementById('gpuplan');",
    `    if (e.source === f.contentWindow && e.data && e.data.type === '${HEIGHT_MESSAGE}' && e.data.height > 0)`,
    "      f.style.height = Math.min(e.data.height, 20000) + 'px';",
    '  });',
    '</script>',
  ].join('\n');
}
