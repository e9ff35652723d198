/** Dashboard stylesheet: system fonts, no external resources (the UI works offline and under a strict CSP). */
export const STYLES_CSS = String.raw`
:root { --fg: #1d2330; --muted: #6b7385; --line: #dde1ea; --bg: #f6f7fa; --card: #fff; --accent: #3559e0; --danger: #c62f3a; --ok: #1d7f4e; --warn: #b86e00; }
* { box-sizing: border-box; }
body { margin: 0; font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--fg); background: var(--bg); }
code, pre, textarea.json { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 12.5px; }
a { color: var(--accent); text-decoration: none; }
a:hover { text-decoration: underline; }
header.top { display: flex; align-items: center; gap: 14px; padding: 10px 20px; background: var(--card); border-bottom: 1px solid var(--line); }
header.top nav { display: flex; gap: 4px; }
header.top nav a { padding: 5px 10px; border-radius: 6px; color: var(--fg); }
header.top nav a.active { background: var(--bg); font-weight: 600; }
.brand { font-size: 16px; }
main { max-width: 1100px; margin: 0 auto; padding: 20px; }
.spacer { flex: 1; }
.muted { color: var(--muted); }
.card { background: var(--card); border: 1px solid var(--line); border-radius: 10px; padding: 16px 18px; margin: 14px 0; }
.login { max-width: 420px; margin: 12vh auto; display: flex; flex-direction: column; gap: 10px; }
.toolbar { display: flex; align-items: center; gap: 12px; flex-wrap: wrap; }
.toolbar h2, .toolbar h3 { margin: 0; }
input, select, textarea { font: inherit; padding: 6px 8px; border: 1px solid var(--line); border-radius: 6px; background: #fff; color: var(--fg); }
input[type=search] { min-width: 280px; }
textarea { width: 100%; }
label { display: flex; flex-direction: column; gap: 4px; font-weight: 500; }
label.inline { flex-direction: row; align-items: center; font-weight: 400; }
button { font: inherit; padding: 6px 12px; border: 1px solid var(--line); border-radius: 6px; background: #fff; cursor: pointer; }
button:hover { border-color: var(--muted); }
button.primary { background: var(--accent); color: #fff; border-color: var(--accent); }
button.danger { color: var(--danger); border-color: var(--danger); }
button.link { border: none; background: none; color: var(--accent); padding: 2px 6px; }
.actions { display: flex; gap: 8px; margin-top: 10px; flex-wrap: wrap; }
.grid2 { display: grid; grid-template-columns: 1fr 1fr; gap: 12px; }
table { width: 100%; border-collapse: collapse; background: var(--card); }
th, td { text-align: left; padding: 8px 10px; border-bottom: 1px solid var(--line); vertical-align: top; }
th { font-weight: 600; color: var(--muted); font-size: 12px; text-transform: uppercase; letter-spacing: .03em; }
.stage { display: inline-flex; align-items: center; gap: 6px; }
.dot { width: 9px; height: 9px; border-radius: 50%; display: inline-block; }
.badge { display: inline-block; margin-left: 8px; padding: 1px 8px; border-radius: 10px; font-size: 12px; background: var(--bg); border: 1px solid var(--line); font-weight: 500; }
.badge.warn { color: var(--warn); border-color: var(--warn); }
.notice { min-height: 1em; margin: 8px 0 0; }
.notice.ok { color: var(--ok); }
.notice.error { color: var(--danger); }
.flag-head { display: flex; justify-content: space-between; gap: 20px; align-items: flex-start; }
.flag-head h2 { margin: 0 0 4px; }
.head-actions { display: flex; gap: 10px; align-items: flex-end; }
.tabs { display: flex; gap: 4px; border-bottom: 1px solid var(--line); margin-top: 12px; }
.tabs button { border: none; border-bottom: 2px solid transparent; border-radius: 0; background: none; }
.tabs button.active { border-bottom-color: var(--accent); font-weight: 600; }
.rule { border: 1px solid var(--line); border-radius: 8px; padding: 10px 12px; margin: 10px 0; }
.rule-head { display: flex; gap: 10px; align-items: center; margin-bottom: 6px; }
.condition { display: flex; gap: 8px; align-items: center; margin: 6px 0; }
.condition .field { width: 200px; }
.condition .values { flex: 1; }
.condition .percent { width: 90px; }
.chips { list-style: none; padding: 0; display: flex; flex-wrap: wrap; gap: 6px; }
.chips li { background: var(--bg); border: 1px solid var(--line); border-radius: 14px; padding: 2px 4px 2px 10px; }
.inline-form { display: flex; gap: 6px; }
.key-cell { display: flex; align-items: center; gap: 4px; flex-wrap: wrap; }
.chart { width: 100%; max-width: 640px; height: auto; }
.chart .bar { fill: var(--accent); }
.chart .axis { stroke: var(--line); }
.chart .label { font-size: 10px; fill: var(--muted); }
.chart .label.end { text-anchor: end; }
ol.audit { list-style: none; padding: 0; margin: 0; }
ol.audit li { border-bottom: 1px solid var(--line); padding: 8px 0; }
.audit-head { display: flex; gap: 10px; align-items: baseline; flex-wrap: wrap; }
table.diff { margin-top: 6px; font-size: 12.5px; }
table.diff td { padding: 3px 8px; }
table.diff td.del { background: #fdecee; color: #8a1f28; }
table.diff td.add { background: #e8f6ee; color: #14583a; }
pre { background: var(--bg); padding: 8px; border-radius: 6px; overflow: auto; }
.offscreen { position: fixed; left: -9999px; }
[hidden] { display: none !important; }
`;
