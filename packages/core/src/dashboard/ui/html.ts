/**
 * The dashboard page. Asset URLs carry content hashes (filled in by ../assets.ts) and are relative, so the page
 * works under any mount prefix as long as it is served at `<prefix>/ui/` (the route redirects `/ui` there).
 */
export function dashboardHtml(cssFile: string, jsFile: string): string {
  return [
    '<!doctype html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    '<meta name="referrer" content="no-referrer">',
    '<title>Flagmount</title>',
    // An empty icon: without it the browser asks the host's root for /favicon.ico.
    '<link rel="icon" href="data:,">',
    `<link rel="stylesheet" href="assets/${cssFile}">`,
    '</head>',
    '<body>',
    '<div id="app"><p class="muted">Loading…</p></div>',
    '<datalist id="attribute-hints"><option value="user.id"><option value="user.email"><option value="user.name">' +
      '<option value="company.id"><option value="company.name"><option value="company.plan"></datalist>',
    `<script src="assets/${jsFile}" defer></script>`,
    '<noscript>The Flagmount dashboard needs JavaScript.</noscript>',
    '</body>',
    '</html>',
  ].join('\n');
}
